import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { failure, bootTestKernel, principalWith, type TestKernel } from '../../host/testing';
import { events, resetEvents } from '../fixtures/plugins/shared';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins');

describe('kernel.call pipeline', () => {
  let testKernel: TestKernel;
  const user = principalWith(['access CRM'], 7);

  before(async () => {
    testKernel = await bootTestKernel({ plugins: ['ok-a', 'writer'], pluginDirs: [fixtures] });
  });
  after(() => testKernel.close());

  const call = (action: string, params: Record<string, unknown>, principal = user, extra = {}) =>
    testKernel.kernel.call({ entity: 'Fixture', action, params, principal, ...extra });

  it('resolves case-insensitively and runs the handler with validated params', async () => {
    expect(await call('PING', { n: '41' })).to.deep.include({ pong: 41, greeting: 'hello' });
  });

  it('answers E_ACTION_NOT_FOUND naming the unknown action (its wording belongs to the API plugin)', async () => {
    const err = await failure(call('nosuch', {}));
    expect(err.code).to.equal('E_ACTION_NOT_FOUND');
    expect(err.message).to.equal('API v3 Fixture.nosuch does not exist');
  });

  it('denies a caller without the permission, with the reference message', async () => {
    const err = await failure(call('ping', {}, principalWith(['view my contact'], 3)));
    expect(err.code).to.equal('E_FORBIDDEN');
    expect(err.message).to.equal(
      'API permission check failed for Fixture/ping call; insufficient permission: require access CRM',
    );
  });

  it('answers an anonymous caller with E_UNAUTHENTICATED', async () => {
    expect((await failure(call('ping', {}, principalWith([])))).code).to.equal('E_UNAUTHENTICATED');
  });

  it('authorizes before validating, so bad params of a forbidden call still say forbidden', async () => {
    expect((await failure(call('ping', { n: 'x' }, principalWith(['x'], 1)))).code).to.equal('E_FORBIDDEN');
  });

  it('rejects params that break the schema, listing every problem', async () => {
    const err = await failure(call('ping', { n: 'abc', extra: 1 }));
    expect(err.code).to.equal('E_INVALID_PARAMS');
    expect((err.details as { problems: string[] }).problems.join(' '))
      .to.contain('n must be integer')
      .and.contain("'extra'");
  });

  it('hides the text of an unexpected handler error', async () => {
    const err = await failure(call('ping', { fail: 'plain' }));
    expect(err.code).to.equal('E_INTERNAL');
    expect(err.expose).to.equal(false);
  });

  it('can() runs resolve and authorize only', async () => {
    expect(await testKernel.kernel.can('Fixture', 'ping', user)).to.equal(true);
    expect(await testKernel.kernel.can('Fixture', 'ping', principalWith([]))).to.equal(false);
    expect(await testKernel.kernel.can('Fixture', 'missing', user)).to.equal(false);
  });

  it("'*' holds every permission", async () => {
    expect(await call('ping', { n: 1 }, principalWith(['*'], 1))).to.deep.include({ pong: 1 });
  });

  describe('transactions', () => {
    const note = (params: Record<string, unknown>, extra = {}) =>
      testKernel.kernel.call({ entity: 'Note', action: 'add', params, principal: user, ...extra });
    const count = async () =>
      (await testKernel.kernel.call({ entity: 'Note', action: 'count', params: {}, principal: user })) as number;

    it('commits a write that succeeds', async () => {
      const before = await count();
      await note({ text: 'kept' });
      expect(await count()).to.equal(before + 1);
    });

    it('leaves nothing half-written when a write fails after inserting', async () => {
      const before = await count();
      await failure(note({ text: 'lost', failAfter: true }));
      expect(await count()).to.equal(before);
    });

    it('runs a dry run fully and rolls it back (force_rollback)', async () => {
      const before = await count();
      expect(await note({ text: 'dry' }, { rollback: true })).to.deep.equal({ added: 'dry' });
      expect(await count()).to.equal(before);
    });
  });
});

describe('kernel.call hooks', () => {
  let testKernel: TestKernel;
  before(async () => {
    resetEvents();
    testKernel = await bootTestKernel({ plugins: ['ok-a', 'observer'], pluginDirs: [fixtures] });
  });
  after(() => testKernel.close());

  it('lets an earlier authorize tap allow what the default check would deny', async () => {
    const res = await testKernel.kernel.call({
      entity: 'Fixture',
      action: 'ping',
      params: { n: 2 },
      principal: principalWith(['vip'], 5),
    });
    expect(res).to.deep.include({ pong: 2 });
  });

  it('validates again after prepare, and lets respond replace the result', async () => {
    const res = await testKernel.kernel.call({
      entity: 'Fixture',
      action: 'ping',
      params: { n: 10 },
      principal: principalWith(['access CRM'], 5),
    });
    expect(res).to.deep.include({ pong: 11, responded: true });
  });

  it('reports failures to api.exception, then rethrows', async () => {
    const err = await failure(
      testKernel.kernel.call({ entity: 'Fixture', action: 'nope', params: {}, principal: principalWith([], 5) }),
    );
    expect(err.code).to.equal('E_ACTION_NOT_FOUND');
    expect(events()).to.include('exception:E_ACTION_NOT_FOUND:Fixture');
  });
});
