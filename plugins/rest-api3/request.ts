/**
 * Reads an APIv3 REST request the way PHP would see it, and builds the API params
 * (`CRM_Utils_REST::buildParamList`, reference §1.2; WordPress, §1.7).
 */
import type { Context } from 'koa';
import { fromFields, mergeTop, parseQueryString, PhpArray, phpEmpty, topToJs } from './php-params';

type Obj = Record<string, unknown>;

export interface ReadRequest {
  /** `$_GET` */
  get: Obj;
  /** `exportValues()`: GET then POST, POST wins (WordPress: a JSON body wins over both). */
  merged: Obj;
}

/** Names that are credentials or transport, never API params. */
export const CREDENTIAL_PARAMS = ['key', 'api_key', '_authx', '_authxSes', '_authxSiteKey'];
// `__proto__` is skipped so an assignment can never swap the params object's prototype.
const CORE_SKIP = new Set(['q', 'json', 'entity', 'action', '__proto__', ...CREDENTIAL_PARAMS]);
const WP_SKIP = new Set(['entity', 'action', '__proto__', ...CREDENTIAL_PARAMS]);

/** Parses query and form body with PHP semantics; cached per request. */
export function readRequest(ctx: Context, opts: { jsonBody?: boolean } = {}): ReadRequest {
  const cached = ctx.state.api3Request as ReadRequest | undefined;
  if (cached) return cached;
  const get = parseQueryString(ctx.querystring);
  let post = new PhpArray();
  const body = ctx.request.body as unknown;
  let jsonBody: Obj | undefined;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    if (ctx.request.is('multipart')) {
      if (body && typeof body === 'object') post = fromFields(body as Obj);
    } else if (ctx.request.is('urlencoded')) {
      const raw = (ctx.request as unknown as { rawBody?: unknown }).rawBody;
      post = parseQueryString(typeof raw === 'string' ? raw : '');
    } else if (opts.jsonBody && ctx.request.is('json') && body && typeof body === 'object' && !Array.isArray(body)) {
      jsonBody = body as Obj;
    }
  }
  const merged = { ...topToJs(mergeTop(get, post)), ...(jsonBody ?? {}) };
  const out = { get: topToJs(get), merged };
  ctx.state.api3Request = out;
  return out;
}

/** Builds the params of a core REST call; `undefined` when `json` cannot be decoded. */
export function buildParams(merged: Obj): Obj | undefined {
  let params: Obj = {};
  const json = merged.json;
  if (typeof json === 'string' && json.startsWith('{')) {
    const decoded = decodeJson(json);
    if (!decoded || Array.isArray(decoded)) return undefined;
    params = decoded;
  }
  for (const [k, v] of Object.entries(merged)) if (!CORE_SKIP.has(k)) params[k] = v;
  const ret = merged.return;
  if (ret && typeof ret === 'object') for (const k of Object.keys(ret)) params[`return.${k}`] = 1;
  return params;
}

/** `json_decode($s, TRUE)` for an object or list; anything else (or invalid text) is `undefined`. */
export function decodeJson(s: string): Obj | unknown[] | undefined {
  try {
    const v = JSON.parse(s);
    return v && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP `is_numeric`. */
export function isNumeric(v: unknown): boolean {
  return typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && NUMERIC.test(v);
}

/**
 * WordPress params (reference §1.7): when `json` is absent or numeric, every remaining request arg
 * (`json` included); otherwise only the decoded JSON. `invalid` when `json` is not a JSON object/list.
 */
export function buildWpParams(merged: Obj): { params: Obj } | { invalid: true } {
  const rest: Obj = {};
  for (const [k, v] of Object.entries(merged)) if (!WP_SKIP.has(k)) rest[k] = v;
  const json = rest.json;
  if (json === undefined || json === null || isNumeric(json)) return { params: rest };
  if (typeof json !== 'string') return { params: {} };
  const decoded = decodeJson(json);
  if (!decoded) return { invalid: true };
  return { params: Array.isArray(decoded) ? Object.fromEntries(decoded.map((v, i) => [String(i), v])) : decoded };
}

/** Whether the answer is JSON: core routes, a non-empty `json`; WordPress, any `json` at all. */
export function wantsJson(merged: Obj, flavour: 'core' | 'wp'): boolean {
  return flavour === 'wp' ? 'json' in merged : !phpEmpty(merged.json);
}

export function stringParam(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}
