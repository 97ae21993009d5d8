/**
 * The three APIv3 REST end-points as route definitions. `makeRoutes` is exported so `compat-civicrm`
 * can mount the same handlers under the reference's spellings.
 */
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import { holds, isKernelError, type Cradle, type KernelError, type Principal, type WireRequest } from '../../kernel';
import { type RouteDefinition } from '../../host';
import { normaliseAction, normaliseEntity } from '../api3';
import type { Api3Service } from '../api3';
import { createError, errorEnvelope, normaliseCore, normaliseWp, restError } from './envelope';
import {
  ENDPOINT_AUTH,
  formatOf,
  MESSAGES,
  send,
  sendDecodeError,
  sendXmlDisabled,
  type Endpoint,
  type Format,
  type RestApi3Binding,
} from './binding';
import { buildParams, buildWpParams, decodeJson, readRequest, stringParam } from './request';
import { checkBatch, checkedChains, getSafe } from './chains';

type Obj = Record<string, unknown>;

/** Flows that are CSRF-resistant (reference §5.3). */
const CSRF_SAFE_FLOWS = new Set(['param', 'xheader', 'legacyrest']);
const MENU_PERMISSION = { anyOf: ['access CRM', 'access AJAX API'] };
const Q_NAMESPACES = new Set(['civicrm', 'crm']);

/** Builds the route definitions for the given paths of each end-point. */
export function makeRoutes(binding: RestApi3Binding, paths: Partial<Record<Endpoint, string[]>>): RouteDefinition[] {
  const routes: RouteDefinition[] = [];
  const add = (name: Endpoint, handler: RouteDefinition['handler']) => {
    const p = paths[name];
    if (!p?.length) return;
    routes.push({
      name,
      methods: ['GET', 'POST'],
      path: p,
      auth: ENDPOINT_AUTH[name],
      handler,
      renderError: (err, ctx) => renderError(binding, name, err, ctx),
    });
  };
  add('ajax', (ctx, scope) => handleCore(binding, 'ajax', ctx, scope));
  add('extern', (ctx, scope) => handleCore(binding, 'extern', ctx, scope));
  add('wp', (ctx, scope) => handleWp(binding, ctx, scope));
  return routes;
}

function securityData(ctx: Context, reason: string): Obj {
  return { IP: ctx.ip, level: 'security', referer: ctx.get('Referer') || null, reason };
}

function api3(scope: AwilixContainer<Cradle>): Api3Service {
  return scope.resolve('api3') as Api3Service;
}

/** `CRM_Utils_REST::process`: force permission checks, default the version, guard GET, call the API. */
async function process(
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  principal: Principal,
  rawEntity: string,
  rawAction: string,
  params: Obj,
  wire?: WireRequest,
): Promise<unknown> {
  const entity = rawEntity.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 63);
  const action = rawAction.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 63);
  const chained = checkedChains(params, action, scope.cradle.config.limits); // every call of a chain is GET-checked
  const checked: Obj = { ...params, check_permissions: true };
  if (!('version' in checked)) checked.version = 3;
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ![action, ...chained].every(getSafe)) {
    return createError(MESSAGES.destructiveGet, securityData(ctx, 'Destructive HTTP GET'));
  }
  // Lets renderError lay out an API error with this call's entity and action.
  ctx.state.api3Call = { entity: normaliseEntity(entity), action: normaliseAction(action) };
  return api3(scope).call({ entity, action, params: checked, principal, scope, wire });
}

async function handleCore(
  binding: RestApi3Binding,
  endpoint: 'ajax' | 'extern',
  ctx: Context,
  scope: AwilixContainer<Cradle>,
): Promise<void> {
  const { get, merged } = readRequest(ctx);
  const fmt = formatOf(ctx, endpoint);
  const principal = (ctx.state.principal ?? scope.cradle.principal) as Principal;
  let entity = stringParam(merged.entity);
  let action = stringParam(merged.action);

  if (endpoint === 'extern') {
    const route = qRoute(get.q);
    if (route === 'ping') return send(binding, ctx, { is_error: 0, message: 'PONG: ' }, fmt);
    if (route === 'malformed') return send(binding, ctx, restError(MESSAGES.malformed), fmt);
    if (!fmt.json && !binding.renderers.has('xml')) return sendXmlDisabled(binding, ctx);
    if (principal.via === 'anonymous') return send(binding, ctx, restError(MESSAGES.noKey), fmt);
    if (route) [entity, action] = route;
  } else {
    if (!fmt.json && !binding.renderers.has('xml')) return sendXmlDisabled(binding, ctx);
    if (!holds(MENU_PERMISSION, principal.permissions)) {
      return send(binding, ctx, { error_code: 'unauthorized', is_error: 1, error_message: MESSAGES.menu }, fmt, 403);
    }
    if (
      binding.options.csrfGuard &&
      ctx.method !== 'OPTIONS' &&
      ctx.get('X-Requested-With') !== 'XMLHttpRequest' &&
      !CSRF_SAFE_FLOWS.has(principal.flow ?? '')
    ) {
      // Always JSON, whatever `json` says (CRM_Utils_JSON::output).
      return send(binding, ctx, createError(MESSAGES.csrf, securityData(ctx, 'CSRF suspected')), {
        ...fmt,
        json: true,
      });
    }
  }
  if (!entity || !action) return send(binding, ctx, restError(MESSAGES.missing), fmt);

  if (endpoint === 'ajax' && entity === 'api3' && action === 'call') {
    return send(binding, ctx, normaliseCore(await processMultiple(ctx, scope, principal, merged.json)), fmt);
  }
  const params = buildParams(merged);
  if (!params) return sendDecodeError(ctx);
  // Compact JSON goes straight out: an action may answer it pre-rendered (WireJson; normaliseCore keeps it).
  const wire = fmt.json && !fmt.pretty ? (binding.options.rowsFromDatabase ? 'json-database' : 'json') : undefined;
  send(binding, ctx, normaliseCore(await process(ctx, scope, principal, entity, action, params, wire)), fmt);
}

/** extern/rest.php's `q`: undefined (absent), `'ping'`, `'malformed'`, or `[entity, action]`. */
function qRoute(q: unknown): undefined | 'ping' | 'malformed' | [string, string] {
  if (q === undefined || q === '') return undefined;
  if (typeof q !== 'string') return 'malformed';
  const args = q.split('/');
  if (args.length === 2 && Q_NAMESPACES.has(args[0]) && args[1] === 'ping') return 'ping';
  if (args.length !== 3 || !Q_NAMESPACES.has(args[0]) || !args[1] || !args[2]) return 'malformed';
  return [args[1], args[2]];
}

/** Batch calls (`entity=api3&action=call`): each `[entity, action, params]` goes through process(). */
async function processMultiple(
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  principal: Principal,
  json: unknown,
): Promise<unknown> {
  const calls = typeof json === 'string' ? decodeJson(json) : undefined;
  if (!calls) return restError('Unable to decode supplied JSON.');
  checkBatch(calls, scope.cradle.config.limits);
  const run = async (call: unknown) => {
    if (!Array.isArray(call) || !stringParam(call[0]) || !stringParam(call[1])) return restError(MESSAGES.missing);
    const params = call[2] && typeof call[2] === 'object' && !Array.isArray(call[2]) ? (call[2] as Obj) : {};
    try {
      return await process(ctx, scope, principal, String(call[0]), String(call[1]), params);
    } catch (err) {
      logUnexpected(ctx, err);
      return errorEnvelope(err, ctx.state.api3Call, ctx.state.requestId);
    } finally {
      delete ctx.state.api3Call;
    }
  };
  if (Array.isArray(calls)) {
    const out: unknown[] = [];
    for (const entry of calls) out.push(await run(entry));
    return out;
  }
  const out: Obj = {};
  for (const [k, entry] of Object.entries(calls)) out[k] = await run(entry);
  return out;
}

function logUnexpected(ctx: Context, err: unknown): void {
  if (!isKernelError(err) || !err.expose) ctx.app.emit('error', err, ctx);
}

async function handleWp(binding: RestApi3Binding, ctx: Context, scope: AwilixContainer<Cradle>): Promise<void> {
  const { merged } = readRequest(ctx, { jsonBody: true });
  const fmt = formatOf(ctx, 'wp');
  const principal = (ctx.state.principal ?? scope.cradle.principal) as Principal;
  const entity = stringParam(merged.entity);
  const action = stringParam(merged.action);
  const missing = [entity ? undefined : 'entity', action ? undefined : 'action'].filter((x): x is string => !!x);
  if (missing.length) {
    ctx.status = 400;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({
      code: 'rest_missing_callback_param',
      message: `Missing parameter(s): ${missing.join(', ')}`,
      data: { status: 400, params: missing },
    });
    return;
  }
  const built = buildWpParams(merged);
  if ('invalid' in built) {
    ctx.status = 400;
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): json',
      data: { status: 400, params: { json: 'Invalid parameter.' } },
    });
    return;
  }
  if (!fmt.json && !binding.renderers.has('xml')) return sendXmlDisabled(binding, ctx);
  const result = await process(ctx, scope, principal, entity!, action!, built.params);
  send(binding, ctx, normaliseWp(result), fmt);
}

/**
 * Renders every error that reaches the boundary on these routes. An auth refusal without a raw
 * response (extern/rest.php legacy keys) is `{"error_message","is_error":1}`; API errors are the
 * APIv3 envelope; all at HTTP 200, in JSON or XML per `json`.
 */
export function renderError(binding: RestApi3Binding, endpoint: Endpoint, err: KernelError, ctx: Context): void {
  let fmt: Format;
  try {
    fmt = formatOf(ctx, endpoint);
  } catch {
    fmt = { json: true, pretty: false, flavour: endpoint === 'wp' ? 'wp' : 'core' };
  }
  const call = ctx.state.api3Call as { entity: string; action: string } | undefined;
  if (!call && err.code === 'E_UNAUTHENTICATED') {
    if (endpoint === 'extern') {
      // extern/rest.php answers ping and rejects malformed paths before it looks at credentials.
      const route = qRoute(safeGet(ctx).q);
      if (route === 'ping') return send(binding, ctx, { is_error: 0, message: 'PONG: ' }, fmt);
      if (route === 'malformed') return send(binding, ctx, restError(MESSAGES.malformed), fmt);
    }
    return send(binding, ctx, restError(err.message), fmt);
  }
  const body = errorEnvelope(err, call, ctx.state.requestId);
  // API errors are HTTP 200 (the reference's rule); a malformed HTTP request (body, method) keeps its 4xx.
  const status = err.code === 'E_BAD_REQUEST' && err.status >= 400 && err.status < 500 ? err.status : 200;
  send(binding, ctx, fmt.flavour === 'wp' ? body : normaliseCore(body), fmt, status);
}

function safeGet(ctx: Context): Obj {
  try {
    return readRequest(ctx).get;
  } catch {
    return {};
  }
}
