/**
 * The APIv4 REST end-points (reference §8) as route definitions. `makeApi4Routes` is exported so
 * `compat-civicrm` can mount the same handlers at `/civicrm/ajax/api4`.
 */
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import type { Logger } from '../../kernel';
import { KernelError, type Cradle, type Principal } from '../../kernel';
import { checkDepth, limitExceeded, type RouteDefinition } from '../../host';
import { envelope, errorBody, formatOf, MESSAGES, renderError, sendCsv, sendJson, WireError } from './answers';
import { streamGet } from './streamed-get';
import { keysetOf, unlimited } from './keyset';
import { decode, indexOf, input, paramsOf } from './request';
import { applyIndex, indexFields } from '../api4';
import type { Api4Result, Api4Service } from '../api4';

type Obj = Record<string, unknown>;

export interface RestApi4Options {
  /** Refuse requests that are not "web service requests" (X-Requested-With, OPTIONS, or a CSRF-safe auth flow). */
  csrfGuard: boolean;
  /** Rows per page of a streamed `get` (one without a limit); default 5000. */
  streamPageSize?: number;
}

export interface RestApi4Binding {
  readonly options: RestApi4Options;
  readonly log: Logger;
}

export const AUTH = ['authx', 'legacy-keys', 'session'];
/** Flows that are CSRF-resistant (§8). */
const CSRF_SAFE_FLOWS = new Set(['param', 'xheader', 'legacyrest']);

/**
 * Builds the single-call and multi-call routes under each prefix (e.g. `/crm/ajax/api4`), named
 * `<names>call` and `<names>multi`.
 */
export function makeApi4Routes(binding: RestApi4Binding, prefixes: string[], names = ''): RouteDefinition[] {
  if (!prefixes.length) return [];
  return [
    {
      name: `${names}call`,
      methods: ['GET', 'POST', 'OPTIONS'],
      path: prefixes.map((p) => `${p}/:entity/:action`),
      auth: AUTH,
      handler: (ctx, scope) => handleSingle(binding, ctx, scope),
      renderError: (err, ctx) => renderError(err, ctx),
    },
    {
      name: `${names}multi`,
      methods: ['GET', 'POST', 'OPTIONS'],
      path: prefixes,
      auth: AUTH,
      handler: (ctx, scope) => handleMulti(binding, ctx, scope),
      renderError: (err, ctx) => renderError(err, ctx),
    },
  ];
}

function principalOf(ctx: Context, scope: AwilixContainer<Cradle>): Principal {
  return (ctx.state.principal ?? scope.cradle.principal) as Principal;
}

/** `CRM_Utils_REST::isWebServiceRequest` (§8), unless the option turns the guard off. */
function csrf(binding: RestApi4Binding, ctx: Context, principal: Principal): void {
  if (!binding.options.csrfGuard || ctx.method === 'OPTIONS') return;
  if (ctx.get('X-Requested-With') === 'XMLHttpRequest' || CSRF_SAFE_FLOWS.has(principal.flow ?? '')) return;
  throw new WireError(400, { error_code: 400, error_message: MESSAGES.csrf });
}

/** What every call must pass before it runs: a well-formed entity and action, the GET guard, the limits. */
function checkCall(ctx: Context, scope: AwilixContainer<Cradle>, entity: string, action: string, params: Obj): void {
  if (
    typeof entity !== 'string' ||
    typeof action !== 'string' ||
    !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(entity) ||
    !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(action)
  ) {
    throw new KernelError(
      'E_ACTION_NOT_FOUND',
      `API (${String(entity).slice(0, 64)}, ${String(action).slice(0, 64)}) does not exist`,
    );
  }
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && !action.startsWith('get') && action !== 'autocomplete') {
    throw new WireError(405, { error_code: 405, error_message: MESSAGES.destructiveGet, status: 405 });
  }
  const limits = scope.cradle.config.limits;
  checkDepth(params, limits.nestingDepth);
  const chains = countChains(params);
  if (chains > limits.chainedCalls)
    throw limitExceeded(
      `${chains} chained calls in one call; at most ${limits.chainedCalls} (limits.chainedCalls)`,
      'chainedCalls',
      limits.chainedCalls,
    );
  if (typeof params.chain === 'object' && params.chain) forbidGetChains(ctx, params.chain);
}

/** One call (its checks passed: `checkCall`), checkPermissions forced on, the envelope. */
async function execute(
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  principal: Principal,
  entity: string,
  action: string,
  params: Obj,
  index: unknown,
): Promise<Obj> {
  const svc = scope.cradle.api4 as Api4Service;
  // A get whose select omits the index's fields fetches them for the index, then leaves them out.
  const select = Array.isArray(params.select) ? (params.select as unknown[]) : undefined;
  const added = action === 'get' && select?.length ? indexFields(index).filter((f) => !select.includes(f)) : [];
  const result: Api4Result = await svc.call({
    entity,
    action,
    params: { ...params, ...(added.length ? { select: [...select!, ...added] } : {}), checkPermissions: true },
    principal,
    scope,
    trusted: false,
  });
  const values = index === undefined ? result.values : applyIndex(result.values, index);
  if (added.length && values && typeof values === 'object')
    for (const row of Array.isArray(values) ? values : Object.values(values as Obj))
      if (row && typeof row === 'object') for (const field of added) delete (row as Obj)[field];
  return envelope(result, values);
}

/** Chained calls in `params.chain`, nested ones included (the depth is already bounded). */
function countChains(params: Obj): number {
  const chain = params.chain;
  if (!chain || typeof chain !== 'object') return 0;
  let n = 0;
  for (const spec of Object.values(chain as Obj)) {
    n++;
    if (Array.isArray(spec) && spec[2] && typeof spec[2] === 'object') n += countChains(spec[2] as Obj);
  }
  return n;
}

/** Chained writes over GET are refused like the top-level call would be. */
function forbidGetChains(ctx: Context, chain: unknown): void {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
  for (const spec of Object.values(chain as Obj)) {
    if (
      Array.isArray(spec) &&
      typeof spec[1] === 'string' &&
      !spec[1].startsWith('get') &&
      spec[1] !== 'autocomplete'
    ) {
      throw new WireError(405, { error_code: 405, error_message: MESSAGES.destructiveGet, status: 405 });
    }
    if (Array.isArray(spec) && spec[2] && typeof spec[2] === 'object' && (spec[2] as Obj).chain)
      forbidGetChains(ctx, (spec[2] as Obj).chain);
  }
}

/**
 * The shared frame of both end-points: CSRF guard, OPTIONS, reading the input, and any failure answered
 * in the APIv4 error envelope. `answer` sends the success.
 */
async function framed(
  binding: RestApi4Binding,
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  answer: (principal: Principal, all: Obj) => Promise<void>,
): Promise<void> {
  const principal = principalOf(ctx, scope);
  try {
    csrf(binding, ctx, principal);
    if (ctx.method === 'OPTIONS') return sendJson(ctx, 200, {});
    await answer(principal, input(ctx));
  } catch (err) {
    const [status, body] = errorBody(ctx, err, principal);
    sendJson(ctx, status, body);
  }
}

function handleSingle(binding: RestApi4Binding, ctx: Context, scope: AwilixContainer<Cradle>): Promise<void> {
  return framed(binding, ctx, scope, async (principal, all) => {
    const { entity, action } = ctx.params as { entity: string; action: string };
    const params = paramsOf(ctx, all);
    const index = indexOf(all.index);
    const format = formatOf(all, action);
    if (format === 'csv' && index !== undefined)
      throw new KernelError('E_INVALID_PARAMS', 'index cannot be used with format=csv', {
        details: { error_field: 'index' },
      });
    checkCall(ctx, scope, entity, action, params);
    // A get without a limit is read in keyset pages and, past one page, written as it is read.
    const keyset =
      action === 'get' && index === undefined && unlimited(ctx, params)
        ? await keysetOf(ctx, scope, principal, entity, params)
        : undefined;
    if (keyset) return streamGet({ ctx, scope, principal, entity, params, format, keyset, binding });
    const out = await execute(ctx, scope, principal, entity, action, params, index);
    if (format === 'csv') sendCsv(ctx, String(out.entity), out.values as unknown[], params.select);
    else sendJson(ctx, 200, out);
  });
}

function handleMulti(binding: RestApi4Binding, ctx: Context, scope: AwilixContainer<Cradle>): Promise<void> {
  return framed(binding, ctx, scope, async (principal, all) => {
    const calls = decode(all.calls, 'calls');
    if (!calls || typeof calls !== 'object' || Array.isArray(calls)) {
      throw new KernelError(
        'E_INVALID_PARAMS',
        'calls must be a JSON object of [entity, action, params, index] tuples',
        { details: { error_field: 'calls' } },
      );
    }
    const max = scope.cradle.config.limits.chainedCalls;
    if (Object.keys(calls).length > max)
      throw limitExceeded(`More than ${max} calls in one request (limits.chainedCalls)`, 'chainedCalls', max);
    const out: Obj = {};
    let status: number | undefined;
    let anyOk = false;
    for (const [key, call] of Object.entries(calls as Obj)) {
      if (key === '__proto__') continue;
      try {
        if (
          !Array.isArray(call) ||
          typeof call[0] !== 'string' ||
          typeof call[1] !== 'string' ||
          (call[2] !== undefined && call[2] !== null && (typeof call[2] !== 'object' || Array.isArray(call[2])))
        ) {
          throw new KernelError('E_INVALID_PARAMS', `calls.${key} must be [entity, action, params, index]`, {
            details: { error_field: key },
          });
        }
        const params = (call[2] as Obj | undefined) ?? {};
        const index = indexOf(call[3]);
        checkCall(ctx, scope, call[0], call[1], params);
        out[key] = await execute(ctx, scope, principal, call[0], call[1], params, index);
        anyOk = true;
      } catch (err) {
        const [errorStatus, body] = errorBody(ctx, err, principal);
        out[key] = body;
        status = errorStatus;
      }
    }
    // A success code is kept once any call has succeeded (§8).
    sendJson(ctx, anyOk || status === undefined ? 200 : status, out);
  });
}
