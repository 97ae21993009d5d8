/** What other plugins import from api3: the contract, the in-process helper, error helpers. */
import type { AwilixContainer } from 'awilix';
import { KernelError, type ActionContext, type Cradle } from '../../kernel';
import type { Api3Service } from './types';

export * from './types';
export { api3Error, invalid, mandatoryMissing, returnedError } from './errors';
export { envelope, scalarEnvelope, stringifyLeaves } from './envelope';
export { normaliseAction, normaliseEntity } from './naming';

/** Thrown by {@link api3} when a call fails or its result has `is_error` (the spec's 4.3.5 wrapper). */
export class Api3CallError extends KernelError {
  readonly errorCode: unknown;
  constructor(source: KernelError | { error_message?: string; error_code?: unknown }) {
    const isK = source instanceof KernelError;
    const message = isK ? source.message : String(source.error_message ?? 'APIv3 call failed');
    const details = isK ? source.details : (source as Record<string, unknown>);
    super(isK ? source.code : 'E_INVALID_PARAMS', message, {
      details,
      cause: isK ? source : undefined,
      status: isK ? source.status : undefined,
    });
    this.name = 'Api3CallError';
    this.errorCode = details?.error_code;
  }
}

function isCtx(x: unknown): x is ActionContext {
  return !!x && typeof x === 'object' && 'scope' in x && 'principal' in x && 'db' in x;
}

/**
 * In-process APIv3 for plugins: the same pipeline (permissions, hooks, chaining) as over HTTP.
 * Given an action context, it runs in the caller's transaction with the caller's principal; given a
 * scope, it uses the scope's principal.
 * @example const c = await api3(ctx, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Ann' });
 */
export async function api3(
  from: ActionContext | AwilixContainer<Cradle>,
  entity: string,
  action: string,
  params: Record<string, unknown> = {},
): Promise<unknown> {
  const scope = isCtx(from) ? from.scope : from;
  const svc = scope.cradle.api3 as Api3Service;
  let result: unknown;
  try {
    result = await svc.call(
      isCtx(from)
        ? { entity, action, params, principal: from.principal, scope, db: from.db }
        : { entity, action, params, principal: scope.cradle.principal, scope },
    );
  } catch (err) {
    if (err instanceof KernelError) throw new Api3CallError(err);
    throw err;
  }
  if (result && typeof result === 'object' && (result as { is_error?: unknown }).is_error)
    throw new Api3CallError(result as Record<string, unknown>);
  return result;
}
