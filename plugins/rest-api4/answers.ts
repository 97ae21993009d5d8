/**
 * How the APIv4 REST end-points answer: JSON bodies, the errors the binding answers itself, and the
 * error answer for everything else (statuses and wording of reference §8).
 */
import type { Context } from 'koa';
import { KernelError, holds, isKernelError, type Principal } from '../../kernel';
import { csvLine, type Api4Result } from '../api4';

type Obj = Record<string, unknown>;

export const DEBUG_PERMISSION = 'view debug output';

export const MESSAGES = {
  csrf: 'SECURITY ALERT: Ajax requests can only be issued by javascript clients, eg. CRM.api4().',
  destructiveGet: 'SECURITY: All requests that modify the database must be http POST, not GET.',
  sorry: (id: string) => `Sorry an error occurred and your request was not completed. (Error ID: ${id})`,
};

export function sendJson(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

/** The output formats of a call: JSON (the default), or CSV for a `get` (`format=csv`). */
export type Format = 'json' | 'csv';

/** The `format` key of the request (query, form or JSON body, beside `params`): `json` or `csv`, `csv` for `get` only. */
export function formatOf(all: Record<string, unknown>, action: string): Format {
  const format = all.format === undefined || all.format === '' ? 'json' : all.format;
  if (format === 'json') return 'json';
  if (format !== 'csv')
    throw new KernelError('E_INVALID_PARAMS', 'format must be json or csv', { details: { error_field: 'format' } });
  if (action !== 'get')
    throw new KernelError('E_INVALID_PARAMS', 'format=csv answers a get only', { details: { error_field: 'format' } });
  return 'csv';
}

/** The APIv4 envelope of one call; `values` first, so a streamed answer can write the rest after the rows. */
export function envelope(result: Api4Result, values: unknown): Obj {
  const out: Obj = {
    values,
    entity: result.entity,
    action: result.action,
    debug: null,
    version: 4,
    count: result.count,
    countFetched: result.countFetched,
  };
  if (result.countMatched !== undefined) out.countMatched = result.countMatched;
  return out;
}

/** CSV columns: the first row's keys, or, with no rows, the select's plain field names. */
export function csvColumns(rows: unknown[], select: unknown): string[] {
  if (rows.length && rows[0] && typeof rows[0] === 'object') return Object.keys(rows[0]);
  if (!Array.isArray(select)) return [];
  return select.filter((s): s is string => typeof s === 'string' && /^[\w.:]+$/.test(s) && s !== 'row_count');
}

/** A whole `get` answered as CSV: a header row, then one line per row (formula cells neutralised). */
export function sendCsv(ctx: Context, entity: string, rows: unknown[], select: unknown): void {
  const columns = csvColumns(rows, select);
  ctx.status = 200;
  ctx.type = 'text/csv';
  ctx.set('Content-Disposition', `attachment; filename="${entity}.csv"`);
  let text = columns.length ? csvLine(columns) : '';
  for (const row of rows) text += csvLine(columns.map((column) => (row as Obj)[column]));
  ctx.body = text;
}

/** An error the binding answers itself (CSRF, GET guard, a malformed request). */
export class WireError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.error_message));
  }
}

/**
 * The error answer: 403 for refusals (`Authorization failed: …`, `ACL check failed`); 404 for an
 * unknown entity or action and 400 for invalid params (deliberately, where the reference says 500);
 * the reference's generic 500 for anything unexpected, with details only for `view debug output`.
 */
export function errorBody(ctx: Context, err: unknown, principal: Principal | undefined, emit = true): [number, Obj] {
  if (err instanceof WireError) return [err.status, err.body];
  const kernelError = isKernelError(err)
    ? err
    : new KernelError('E_INTERNAL', (err as Error)?.message ?? String(err), { cause: err });
  const requestId = String(ctx.state.requestId ?? '');
  if (kernelError.code === 'E_FORBIDDEN' || kernelError.code === 'E_UNAUTHENTICATED')
    return [403, { error_code: 0, error_message: kernelError.message, status: 403 }];
  if (kernelError.expose && kernelError.status >= 400 && kernelError.status < 500) {
    const body: Obj = { error_code: kernelError.code, error_message: kernelError.message, status: kernelError.status };
    const field = kernelError.details?.error_field ?? kernelError.details?.fields;
    if (field !== undefined) body.error_field = field;
    if (Array.isArray(kernelError.details?.problems)) body.problems = kernelError.details.problems;
    return [kernelError.status, body];
  }
  if (emit) ctx.app.emit('error', kernelError, ctx);
  if (principal && holds(DEBUG_PERMISSION, principal.permissions)) {
    const cause = (kernelError.cause as Error | undefined)?.message;
    return [
      500,
      {
        error_id: requestId,
        error_code: kernelError.code,
        error_message: cause && kernelError.code === 'E_INTERNAL' ? cause : kernelError.message,
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
