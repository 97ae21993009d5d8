import { expect } from 'chai';
import { createRequestScope, isKernelError, type KernelError } from '../../../kernel';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import type { Api3Service } from '../../../plugins/api3/types';
import { ENGINE_PLUGINS, FIXTURES } from './helpers';

describe('api3 engine: its own control params never reach a strict action schema', () => {
  let booted: TestKernel;
  const call = async (params: Record<string, unknown>) => {
    const principal = principalWith(['access CRM']);
    const scope = createRequestScope(booted.kernel.container, 'test', principal);
    try {
      return await (scope.cradle.api3 as Api3Service).call({
        entity: 'Greeting',
        action: 'get',
        params,
        principal,
        scope,
      });
    } finally {
      await scope.dispose();
    }
  };
  before(async function () {
    this.timeout(60_000); // a boot under a loaded machine
    booted = await bootTestKernel({
      plugins: [...ENGINE_PLUGINS, 'strict-greeting'],
      pluginDirs: [FIXTURES],
      logLevel: 'warn',
    });
  });
  after(async () => booted?.close());

  it('version and check_permissions (as the REST binding sends them) are not the action params', async () => {
    const res = await call({ name: 'Ann', version: 3, check_permissions: true });
    expect(res).to.deep.equal({ is_error: 0, version: 3, count: 1, values: [{ text: 'Hi, Ann' }] });
  });

  it('the action schema still refuses what it does not declare, and wrong types', async () => {
    for (const params of [{ name: 'Ann', colour: 'red' }, { name: { first: 'Ann' } }]) {
      const err = await call(params).catch((e: unknown) => e);
      expect(isKernelError(err), JSON.stringify(err)).to.equal(true);
      expect((err as KernelError).code).to.equal('E_INVALID_PARAMS');
    }
  });
});
