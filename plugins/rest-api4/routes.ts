/**
 * The APIv4 REST end-points (reference §8) as route definitions. `makeApi4Routes` is exported so
 * `compat-civicrm` can mount the same handlers at `/civicrm/ajax/api4`.
 */
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import type { Logger } from '../../kernel';
import { KernelError, holds, isKernelError, type Cradle, type Principal } from '../../kernel';
import { type RouteDefinition } from '../../host';
import { applyIndex } from '../api4';
import type { Api4Result, Api4Service } from '../api4';

type Obj = Record<string, unknown>;

export interface RestApi4Options {
  /** Refuse requests that are not "web service requests" (X-Requested-With, OPTIONS, or a CSRF-safe auth flow). */
  csrfGuard: boolean;
}

export interface RestApi4Binding {
  readonly options: RestApi4Options;
  readonly log: Logger;
}

export const AUTH = ['authx', 'legacy-keys', 'session'];
/** Flows that are CSRF-resistant (§8). */
const CSRF_SAFE_FLOWS = new Set(['param', 'xheader', 'legacyrest']);
export const DEBUG_PERMISSION = 'view debug output';

export const MESSAGES = {
  csrf: 'SECURITY ALERT: Ajax requests can only be issued by javascript clients, eg. CRM.api4().',
  destructiveGet: 'SECURITY: All requests that modify the database must be http POST, not GET.',
  sorry: (id: string) => `Sorry an error occurred and your request was not completed. (Error ID: ${id})`,
};

/** Names of action params that may also come as their own query/form/JSON keys (merged into params). */
const PARAM_KEYS = [
  'select',
  'where',
  'orderBy',
  'limit',
  'offset',
  'values',
  'records',
  'defaults',
  'match',
  'chain',
  'loadOptions',
  'action',
  'reload',
  'language',
];

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

function sendJson(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

/** An error the binding answers itself (CSRF, GET guard, a malformed request). */
class WireError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.error_message));
  }
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

/** Query string and body as one object (body wins); a JSON body is taken as it is. */
function input(ctx: Context): Obj {
  const out: Obj = { ...(ctx.query as Obj) };
  const body = ctx.request.body as unknown;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && body && typeof body === 'object' && !Array.isArray(body))
    Object.assign(out, body as Obj);
  delete out.__proto__;
  return out;
}

function decode(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new KernelError('E_INVALID_PARAMS', `Invalid JSON in ${what}`, { details: { error_field: what } });
  }
}

/** `params` (JSON) plus any known action param given on its own, JSON-decoded when it parses. */
function paramsOf(ctx: Context, all: Obj): Obj {
  const raw = all.params === undefined || all.params === '' ? {} : decode(all.params, 'params');
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new KernelError('E_INVALID_PARAMS', 'params must be a JSON object', { details: { error_field: 'params' } });
  const params: Obj = { ...(raw as Obj) };
  // A JSON request body without `params` is the params object itself.
  if (all.params === undefined && ctx.request.is('json')) {
    const body = ctx.request.body as Obj;
    if (body && typeof body === 'object')
      for (const [k, v] of Object.entries(body)) if (k !== 'index' && k !== '__proto__') params[k] = v;
  }
  for (const k of PARAM_KEYS) {
    if (all[k] === undefined || k in params) continue;
    const v = all[k];
    if (typeof v === 'string') {
      try {
        params[k] = JSON.parse(v);
      } catch {
        params[k] = v;
      }
    } else params[k] = v;
  }
  delete params.__proto__;
  return params;
}

function indexOf(v: unknown): unknown {
  if (v === undefined || v === '' || v === null) return undefined;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return v;
}

/** One call: GET guard, checkPermissions forced on, the envelope. */
async function execute(
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  principal: Principal,
  entity: string,
  action: string,
  params: Obj,
  index: unknown,
): Promise<Obj> {
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
  if (typeof params.chain === 'object' && params.chain) forbidGetChains(ctx, params.chain);
  const svc = scope.cradle.api4 as Api4Service;
  const r: Api4Result = await svc.call({
    entity,
    action,
    params: { ...params, checkPermissions: true },
    principal,
    scope,
    trusted: false,
  });
  const out: Obj = {
    values: index === undefined ? r.values : applyIndex(r.values, index),
    entity: r.entity,
    action: r.action,
    debug: null,
    version: 4,
    count: r.count,
    countFetched: r.countFetched,
  };
  if (r.countMatched !== undefined) out.countMatched = r.countMatched;
  return out;
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
    sendJson(ctx, 200, await execute(ctx, scope, principal, entity, action, paramsOf(ctx, all), indexOf(all.index)));
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
        out[key] = await execute(
          ctx,
          scope,
          principal,
          call[0],
          call[1],
          (call[2] as Obj | undefined) ?? {},
          indexOf(call[3]),
        );
        anyOk = true;
      } catch (err) {
        const [s, body] = errorBody(ctx, err, principal);
        out[key] = body;
        status = s;
      }
    }
    // A success code is kept once any call has succeeded (§8).
    sendJson(ctx, anyOk || status === undefined ? 200 : status, out);
  });
}

/**
 * The error answer: 403 for refusals (`Authorization failed: …`, `ACL check failed`); 404 for an
 * unknown entity or action and 400 for invalid params (deliberately, where the reference says 500);
 * the reference's generic 500 for anything unexpected, with details only for `view debug output`.
 */
export function errorBody(ctx: Context, err: unknown, principal: Principal | undefined, emit = true): [number, Obj] {
  if (err instanceof WireError) return [err.status, err.body];
  const e = isKernelError(err)
    ? err
    : new KernelError('E_INTERNAL', (err as Error)?.message ?? String(err), { cause: err });
  const requestId = String(ctx.state.requestId ?? '');
  if (e.code === 'E_FORBIDDEN' || e.code === 'E_UNAUTHENTICATED')
    return [403, { error_code: 0, error_message: e.message, status: 403 }];
  if (e.expose && e.status >= 400 && e.status < 500) {
    const body: Obj = { error_code: e.code, error_message: e.message, status: e.status };
    const field = e.details?.error_field ?? e.details?.fields;
    if (field !== undefined) body.error_field = field;
    if (Array.isArray(e.details?.problems)) body.problems = e.details.problems;
    return [e.status, body];
  }
  if (emit) ctx.app.emit('error', e, ctx);
  if (principal && holds(DEBUG_PERMISSION, principal.permissions)) {
    const cause = (e.cause as Error | undefined)?.message;
    return [
      500,
      {
        error_id: requestId,
        error_code: e.code,
        error_message: cause && e.code === 'E_INTERNAL' ? cause : e.message,
        status: 500,
      },
    ];
  }
  return [500, { error_code: '1', error_message: MESSAGES.sorry(requestId), status: 500 }];
}

/**
 * Errors that reach the boundary on these routes: an auth refusal with its own raw answer is sent by
 * the boundary; one without (a plain reject) is AuthX's `HTTP 401` text; the rest as {@link errorBody}.
 */
export function renderError(err: KernelError, ctx: Context): void {
  if (err.code === 'E_UNAUTHENTICATED' && !ctx.state.principal) {
    ctx.status = 401;
    ctx.type = 'text/plain';
    ctx.body = `HTTP 401 ${err.message}`;
    return;
  }
  const [status, body] = errorBody(ctx, err, ctx.state.principal as Principal | undefined, false);
  sendJson(ctx, status, body);
}
