/**
 * The pipeline every API call goes through, from HTTP or in-process:
 * resolve → authorize → validate → prepare → invoke → respond (exception on failure).
 */
import type { AwilixContainer } from 'awilix';
import type { Knex } from 'knex';
import type { ActionRegistry, CompiledAction } from './actions';
import { createRequestScope } from './container';
import { apiAuthorize, apiException, apiPrepare, apiRespond, apiWrite, type ApiRequest } from './core-hooks';
import { KernelError, isKernelError } from './errors';
import type { HookBus } from './hooks';
import { describeErrors } from './schema';
import {
  ANONYMOUS,
  type ActionContext,
  type ApiCallRequest,
  type Cradle,
  type Logger,
  type Permission,
  type Principal,
  type WireRequest,
} from './types';

/** What the pipeline needs from the kernel. */
export interface PipelineParts {
  readonly actions: ActionRegistry;
  readonly hooks: HookBus;
  readonly container: AwilixContainer<Cradle>;
  readonly db: Knex;
  readonly log: Logger;
}

/** Resolve and authorize only: may this principal call this action (with these params)? */
export async function canCall(
  parts: PipelineParts,
  entity: string,
  action: string,
  principal: Principal,
  opts: { version?: number; params?: Record<string, unknown> } = {},
): Promise<boolean> {
  const def = parts.actions.get(opts.version ?? 3, entity, action);
  if (!def || def.internal) return false;
  const decision = await authorize(parts, def, principal, opts.params ?? {});
  return decision === 'allow';
}

export async function runCall(parts: PipelineParts, req: ApiCallRequest): Promise<unknown> {
  const version = req.version ?? 3;
  const principal = req.principal ?? ANONYMOUS;
  const ownScope = !req.scope;
  const scope = req.scope ?? createRequestScope(parts.container, `call-${Date.now()}`, principal);
  let apiReq: ApiRequest = {
    version,
    entity: req.entity,
    action: req.action,
    principal,
    permission: 'public',
    params: req.params,
  };
  try {
    const def = parts.actions.get(version, req.entity, req.action);
    if (!def || (def.internal && !req.internal)) {
      throw new KernelError('E_ACTION_NOT_FOUND', parts.actions.notFoundMessage(version, req.entity, req.action), {
        details: { entity: req.entity, action: req.action },
      });
    }
    apiReq = { ...apiReq, entity: def.resolvedEntity, action: def.action, permission: permissionOf(def, req.params) };
    if (!req.trusted) {
      const decision = await authorize(parts, def, principal, req.params);
      if (decision !== 'allow') {
        const code = principal.via === 'anonymous' ? 'E_UNAUTHENTICATED' : 'E_FORBIDDEN';
        throw new KernelError(code, decision?.deny ?? `No plugin authorized ${def.resolvedEntity}/${def.action}`, {
          details: { entity: def.resolvedEntity, action: req.action },
        });
      }
    }
    let params = validated(def, req.params);
    const prepared = await parts.hooks.run(apiPrepare, params, apiReq);
    if (prepared !== params) params = validated(def, prepared);
    apiReq = { ...apiReq, params };
    const call = apiReq;
    const invoke = async (db: Knex) => {
      if (def.writes && db.isTransaction) await parts.hooks.run(apiWrite, call, db);
      return def.handler(params, actionContext(parts, def, principal, scope, db, !!req.trusted, req.wire));
    };
    const result = await inTransaction(parts.db, def, req, invoke);
    return await parts.hooks.run(apiRespond, result, apiReq);
  } catch (err) {
    const error = isKernelError(err)
      ? err
      : new KernelError('E_INTERNAL', (err as Error)?.message ?? String(err), { cause: err });
    await parts.hooks
      .run(apiException, error, apiReq)
      .catch((tapError) => parts.log.error({ err: tapError }, 'api.exception tap failed'));
    throw error;
  } finally {
    if (ownScope) await scope.dispose();
  }
}

async function inTransaction(
  rootDb: Knex,
  def: CompiledAction,
  req: ApiCallRequest,
  invoke: (db: Knex) => Promise<unknown> | unknown,
): Promise<unknown> {
  const outer = req.db ?? rootDb;
  if (!req.rollback && !def.writes) return invoke(outer);
  if (!req.rollback && req.db?.isTransaction) return invoke(req.db);
  // A savepoint when nested, a transaction otherwise; a dry run always rolls back.
  const trx = await outer.transaction();
  try {
    const result = await invoke(trx);
    if (req.rollback) await trx.rollback();
    else await trx.commit();
    return result;
  } catch (err) {
    if (!trx.isCompleted()) await trx.rollback();
    throw err;
  }
}

function authorize(parts: PipelineParts, def: CompiledAction, principal: Principal, params: Record<string, unknown>) {
  return parts.hooks.run(apiAuthorize, {
    version: def.version,
    entity: def.resolvedEntity,
    action: def.action,
    principal,
    permission: permissionOf(def, params),
    params,
  });
}

function actionContext(
  parts: PipelineParts,
  def: CompiledAction,
  principal: Principal,
  scope: AwilixContainer<Cradle>,
  db: Knex,
  trusted: boolean,
  wire?: WireRequest,
): ActionContext {
  return {
    version: def.version,
    entity: def.resolvedEntity,
    action: def.action,
    principal,
    scope,
    db,
    trusted,
    wire,
    call: (entity, action, params, opts = {}) =>
      runCall(parts, {
        version: opts.version ?? def.version,
        entity,
        action,
        params,
        principal,
        scope,
        db,
        trusted: opts.trusted ?? trusted,
      }),
  };
}

/**
 * A deep copy of params for the validator to coerce in place (the caller's object stays as given). Plain
 * objects and arrays (all an HTTP binding ever sends) are copied by hand, several times faster than
 * `structuredClone` on a small request; anything else (a Date, a Buffer, a cycle past 64 levels, a value
 * it cannot clone) goes to `structuredClone`, so the result and the refusals are the same.
 */
export function cloneParams<T>(value: T, depth: number): T {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
    return value;
  }
  if (depth > 64) return structuredClone(value);
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneParams(value[i], depth + 1);
    return out as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // JSON.parse makes `__proto__` an own key; assigned anywhere further on, it would set a prototype and its
    // value would be lost in silence. No parameter or field has that name: it is refused here, for every API.
    if (key === '__proto__') throw new KernelError('E_INVALID_PARAMS', "Invalid key '__proto__' in params");
    out[key] = cloneParams((value as Record<string, unknown>)[key], depth + 1);
  }
  return out as T;
}

function validated(def: CompiledAction, params: Record<string, unknown>): Record<string, unknown> {
  const copy = cloneParams(params ?? {}, 0);
  if (!def.validate(copy)) {
    const problems = describeErrors(def.validate.errors);
    // The failing keys (dotted), so a binding can word the error its own way.
    const paths = [...new Set((def.validate.errors ?? []).map((e) => e.instancePath.slice(1).replace(/\//g, '.')))];
    throw new KernelError(
      'E_INVALID_PARAMS',
      `Invalid params for ${def.resolvedEntity}.${def.action}: ${problems.join('; ')}`,
      { details: { problems, paths } },
    );
  }
  return copy;
}

function permissionOf(def: CompiledAction, params: Record<string, unknown>): Permission {
  return typeof def.permission === 'function' ? def.permission(params, def.resolvedEntity) : def.permission;
}
