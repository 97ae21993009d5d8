/**
 * APIv3 REST result shaping (reference §1.5, §1.7, §2.2): scalars wrapped, flat arrays get
 * `is_error:0` appended, errors laid out in the reference's key order.
 */
import { isKernelError, isWireJson, type KernelError, type WireJson } from '../../kernel';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj | unknown[] => typeof v === 'object' && v !== null;

/** A PHP array with at least one array value (`CRM_Utils_Array::isHierarchical`). */
export function isHierarchical(v: Obj | unknown[]): boolean {
  return Object.values(v).some(isObj);
}

/** `array_merge($a)`: renumbers integer keys from 0, keeps string keys; an all-integer result is a list. */
export function arrayMerge(v: Obj | unknown[]): Obj | unknown[] {
  if (Array.isArray(v)) return v;
  const keys = Object.keys(v);
  const ints = keys.filter((k) => /^(0|-?[1-9][0-9]*)$/.test(k));
  if (!ints.length) return v;
  if (ints.length === keys.length) return keys.map((k) => v[k]);
  const out: Obj = {};
  let n = 0;
  for (const k of keys) out[ints.includes(k) ? String(n++) : k] = v[k];
  return out;
}

/** `CRM_Utils_REST::output` normalisation for the core routes (ajax, extern/rest.php). */
export function normaliseCore(result: unknown): Obj | unknown[] | WireJson {
  // A pre-rendered get envelope: its keys are names, so array_merge would keep it as it is.
  if (isWireJson(result)) return result;
  if (result === null || result === undefined || typeof result !== 'object') {
    if (typeof result === 'function' || typeof result === 'symbol' || typeof result === 'bigint') {
      return { error_message: 'Could not interpret return values from function.', is_error: 1 };
    }
    return { is_error: 0, result: result || 0 };
  }
  const arr = result as Obj | unknown[];
  if (isHierarchical(arr)) return arrayMerge(arr);
  // A flat PHP array (a list too) becomes an object with is_error appended.
  const flat: Obj = Array.isArray(arr) ? Object.fromEntries(arr.map((v, i) => [String(i), v])) : { ...arr };
  if (!('is_error' in flat)) flat.is_error = 0;
  return arrayMerge(flat);
}

/** The WordPress route (reference §1.7): empty → `[]`, `values` always a list, the rest as is. */
export function normaliseWp(result: unknown): unknown {
  if (result === null || result === undefined || result === false || result === 0 || result === '' || result === '0')
    return [];
  if (isObj(result) && Object.keys(result).length === 0) return [];
  if (
    isObj(result) &&
    !Array.isArray(result) &&
    (result as Obj).values !== undefined &&
    (result as Obj).values !== null
  ) {
    const values = (result as Obj).values;
    if (isObj(values)) return { ...(result as Obj), values: Object.values(values) };
  }
  return result;
}

/** Kernel code → APIv3 `error_code` when the thrower gave none. */
export function api3ErrorCode(err: KernelError): string | number {
  switch (err.code) {
    case 'E_ACTION_NOT_FOUND':
      return 'not-found';
    case 'E_FORBIDDEN':
    case 'E_UNAUTHENTICATED':
      return 'unauthorized';
    default:
      return 0;
  }
}

const RESERVED = new Set(['error_code', 'entity', 'action', 'is_error', 'error_message', 'api3Shape', 'trace']);

/** The message a caller may see: the error's own for exposed codes, a generic one otherwise. */
export function publicMessage(err: unknown, requestId?: string): string {
  if (isKernelError(err) && err.expose) return err.message;
  return `Internal error${requestId ? ` (request ${requestId})` : ''}: the server could not complete the call; it has been logged.`;
}

/**
 * The error envelope: extra data, `error_code`, `entity`, `action`, `is_error`, `error_message`
 * (reference §2.2). Errors the reference *returns* (`details.api3Shape === 'returned'`) carry only
 * their own keys; unexpected errors only `is_error` and a generic message.
 */
export function errorEnvelope(err: unknown, call: { entity?: string; action?: string } = {}, requestId?: string): Obj {
  if (!isKernelError(err) || !err.expose) return { is_error: 1, error_message: publicMessage(err, requestId) };
  const details = (err.details ?? {}) as Obj;
  const extra: Obj = {};
  for (const [k, v] of Object.entries(details)) if (!RESERVED.has(k)) extra[k] = v;
  if (details.api3Shape === 'returned') return { ...extra, is_error: 1, error_message: err.message };
  const out: Obj = { ...extra, error_code: details.error_code ?? api3ErrorCode(err) };
  const entity = typeof details.entity === 'string' ? details.entity : call.entity;
  const action = typeof details.action === 'string' ? details.action : call.action;
  if (entity !== undefined) out.entity = entity;
  if (action !== undefined) out.action = action;
  out.is_error = 1;
  out.error_message = err.message;
  return out;
}

/** `civicrm_api3_create_error($msg, $data)`: the data first, then is_error and error_message. */
export function createError(message: string, data: Obj = {}): Obj {
  return { ...data, is_error: 1, error_message: message };
}

/** `CRM_Utils_REST::error($msg)`: `error_message` first, then `is_error`. */
export function restError(message: string): Obj {
  return { error_message: message, is_error: 1 };
}
