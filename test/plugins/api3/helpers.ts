/** Shared helpers for the APIv3 engine tests: boot once, call through the `api3` service in-process. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequestScope, isKernelError, type KernelError, type Principal } from '../../../kernel';
import { bootTestKernel, principalWith, sqlDuring, type TestKernel } from '../../../host/testing';
import type { Api3Service } from '../../../plugins/api3/types';

export const ENGINE_PLUGINS = ['entity-core', 'api3', 'entity-option', 'entity-contact'];
export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const ADMIN = principalWith(['*'], 1);

export type Call = (
  entity: string,
  action: string,
  params?: Record<string, unknown>,
  principal?: Principal,
) => Promise<any>;

export interface Engine {
  t: TestKernel;
  call: Call;
  /** Resolves with the thrown KernelError (fails when the call succeeds). */
  fail: (
    entity: string,
    action: string,
    params?: Record<string, unknown>,
    principal?: Principal,
  ) => Promise<KernelError>;
  /** Counts SQL statements run while `fn` runs. */
  countQueries: (fn: () => Promise<unknown>) => Promise<number>;
}

export async function bootEngine(opts: { withRowAccess?: boolean; plugins?: string[] } = {}): Promise<Engine> {
  const plugins = [...ENGINE_PLUGINS, ...(opts.withRowAccess ? ['row-access-tap'] : []), ...(opts.plugins ?? [])];
  const booted = await bootTestKernel({
    plugins,
    logLevel: 'warn',
    pluginDirs: opts.withRowAccess ? [FIXTURES] : undefined,
  });
  const call: Call = async (entity, action, params = {}, principal = ADMIN) => {
    const scope = createRequestScope(booted.kernel.container, 'test', principal);
    try {
      return await (scope.cradle.api3 as Api3Service).call({ entity, action, params, principal, scope });
    } finally {
      await scope.dispose();
    }
  };
  const fail = async (
    entity: string,
    action: string,
    params: Record<string, unknown> = {},
    principal: Principal = ADMIN,
  ) => {
    try {
      const r = await call(entity, action, params, principal);
      throw new Error(`expected ${entity}.${action} to fail, got ${JSON.stringify(r).slice(0, 300)}`);
    } catch (err) {
      if (!isKernelError(err)) throw err;
      return err;
    }
  };
  const countQueries = async (fn: () => Promise<unknown>) => (await sqlDuring(booted.kernel.db, fn)).length;
  return { t: booted, call, fail, countQueries };
}

export async function individual(
  call: Call,
  first: string,
  last: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const r = await call('Contact', 'create', {
    contact_type: 'Individual',
    first_name: first,
    last_name: last,
    ...extra,
  });
  return r.id as number;
}
