/** Reading an APIv4 REST request: the merged input, JSON-encoded values, the action params, `index`. */
import type { Context } from 'koa';
import { KernelError } from '../../kernel';

type Obj = Record<string, unknown>;

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

/** Query string and body as one object (body wins); a JSON body is taken as it is. */
export function input(ctx: Context): Obj {
  const out: Obj = { ...(ctx.query as Obj) };
  const body = ctx.request.body as unknown;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && body && typeof body === 'object' && !Array.isArray(body))
    Object.assign(out, body as Obj);
  delete out.__proto__;
  return out;
}

export function decode(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new KernelError('E_INVALID_PARAMS', `Invalid JSON in ${what}`, { details: { error_field: what } });
  }
}

/** `params` (JSON) plus any known action param given on its own, JSON-decoded when it parses. */
export function paramsOf(ctx: Context, all: Obj): Obj {
  const raw = all.params === undefined || all.params === '' ? {} : decode(all.params, 'params');
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new KernelError('E_INVALID_PARAMS', 'params must be a JSON object', { details: { error_field: 'params' } });
  const params: Obj = { ...(raw as Obj) };
  // A JSON request body without `params` is the params object itself.
  if (all.params === undefined && ctx.request.is('json')) {
    const body = ctx.request.body as Obj;
    if (body && typeof body === 'object')
      for (const [k, value] of Object.entries(body)) if (k !== 'index' && k !== '__proto__') params[k] = value;
  }
  for (const k of PARAM_KEYS) {
    if (all[k] === undefined || k in params) continue;
    const value = all[k];
    if (typeof value === 'string') {
      try {
        params[k] = JSON.parse(value);
      } catch {
        params[k] = value;
      }
    } else params[k] = value;
  }
  delete params.__proto__;
  return params;
}

export function indexOf(v: unknown): unknown {
  if (v === undefined || v === '' || v === null) return undefined;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  // An object index (`{"id":"display_name"}`) arrives JSON-encoded in a query string or form.
  if (typeof v === 'string' && v.startsWith('{')) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}
