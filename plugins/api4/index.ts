/** What other plugins import from api4: the contract and the in-process helper. */
import type { AwilixContainer } from 'awilix';
import { KernelError, isKernelError, type ActionContext, type Cradle } from '../../kernel';
import type { Api4Result, Api4Service } from './types';

export * from './types';
export { applyIndex, indexFields } from './rows';
export { csvLine, neutralise } from './csv-cells';
export { keysetPages, walkableSort, type Keyset, type SortDir } from './keyset-walk';

/** Thrown by {@link api4} when a call fails: the KernelError's code, message, status and details. */
export class Api4CallError extends KernelError {
  constructor(source: KernelError) {
    super(source.code, source.message, { details: source.details, cause: source, status: source.status });
    this.name = 'Api4CallError';
  }
}

function isCtx(x: unknown): x is ActionContext {
  return !!x && typeof x === 'object' && 'scope' in x && 'principal' in x && 'db' in x;
}

/**
 * In-process APIv4 for plugins: the same pipeline (permissions, row access, chain) as over HTTP.
 * Given an action context, it runs in the caller's transaction with the caller's principal; given a
 * scope, it uses the scope's principal. `checkPermissions: false` in params runs it trusted.
 * @example const r = await api4(ctx, 'Contact', 'get', { select: ['display_name'], where: [['id', '=', 1]] });
 */
export async function api4(
  from: ActionContext | AwilixContainer<Cradle>,
  entity: string,
  action: string,
  params: Record<string, unknown> = {},
): Promise<Api4Result> {
  const scope = isCtx(from) ? from.scope : from;
  const svc = scope.cradle.api4 as Api4Service;
  try {
    return await svc.call(
      isCtx(from)
        ? { entity, action, params, principal: from.principal, scope, db: from.db }
        : { entity, action, params, principal: scope.cradle.principal, scope },
    );
  } catch (err) {
    if (isKernelError(err)) throw new Api4CallError(err);
    throw err;
  }
}
