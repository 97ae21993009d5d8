/**
 * An APIv4 `get` without a limit, answered page by page (issue 18): the rows are read through the api4
 * `get` itself (its select, where, joins, suffixes, chains and row access) in keyset pages, `id > last`
 * (or `id < last` for `orderBy: {id: 'DESC'}`), and each page is written before the next is read, so the
 * server holds one page whatever the total. The rows and their order are the buffered answer's: a read is
 * always ordered by id after the caller's sort (entity-core's plain query appends `t.id`), so a walk in id
 * order is that order. A result that fits in the first page is answered as one body, as before.
 *
 * JSON is the buffered envelope byte for byte: `{"values":[` the rows `],"entity":…,"count":N,…}`, `count`
 * and `countFetched` after the rows (where `JSON.stringify` puts them too). A failure before the first
 * byte is the usual error answer; after it the connection is closed (the client sees a cut-off answer,
 * never a complete-looking one) and the failure is logged.
 */
import type { ServerResponse } from 'node:http';
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import { holds, isKernelError, KernelError, type Cradle, type Principal } from '../../kernel';
import { csvLine, type Api4Result, type Api4Service } from '../api4';
import { csvColumns, envelope, sendCsv, sendJson, type Format } from './answers';
import type { RestApi4Binding } from './routes';

type Obj = Record<string, unknown>;
type Order = 'ASC' | 'DESC';

export const DEFAULT_PAGE_SIZE = 5000;

/** Params whose reads are not one row per id in id order: such a get keeps the one-call path. */
const UNPAGED = ['groupBy', 'having', 'join'];

/**
 * The keyset order of a get that may be streamed, or undefined: no limit (`limit` absent or 0), no index,
 * no grouping or explicit join (rows per id), no `row_count` or aggregate in the select, sorted by nothing
 * or by `id` alone, the generic api4 get, and a caller with `administer CRM` (every other caller's read is
 * bounded by `limits.rowsPerRead` and refused past it, so it keeps the one-call path, which enforces that).
 */
export function keysetOrder(
  ctx: Context,
  scope: AwilixContainer<Cradle>,
  principal: Principal,
  entity: string,
  params: Obj,
): Order | undefined {
  if (ctx.method === 'HEAD' || (params.limit !== undefined && params.limit !== 0)) return undefined;
  if (UNPAGED.some((key) => params[key] !== undefined && params[key] !== null)) return undefined;
  if (!holds('administer CRM', principal.permissions)) return undefined;
  const select = params.select;
  if (select !== undefined && !Array.isArray(select)) return undefined;
  if (select?.some((item) => typeof item !== 'string' || item === 'row_count' || item.includes('('))) return undefined;
  let order: Order = 'ASC';
  if (params.orderBy !== undefined && params.orderBy !== null) {
    const entries = typeof params.orderBy === 'object' ? Object.entries(params.orderBy as Obj) : [];
    const dir = entries.length === 1 && entries[0][0] === 'id' ? String(entries[0][1]).toUpperCase() : '';
    if (dir !== 'ASC' && dir !== 'DESC') return undefined;
    order = dir;
  }
  const get = scope.cradle.api.actions({ version: 4, entity }).find((a) => a.action === 'get');
  return get?.generic && get.plugin === 'api4' ? order : undefined;
}

export interface StreamRequest {
  ctx: Context;
  scope: AwilixContainer<Cradle>;
  principal: Principal;
  entity: string;
  params: Obj;
  format: Format;
  order: Order;
  binding: RestApi4Binding;
}

/** The client went away: the walk stops. */
class ClientGone extends Error {}

/** Writes to the response, waiting for the client to take what was written (or to leave). */
async function put(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed) throw new ClientGone('the client closed the connection');
  if (!res.write(text))
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  if (res.destroyed) throw new ClientGone('the client closed the connection');
}

export async function streamGet(req: StreamRequest): Promise<void> {
  const { ctx, scope, principal, entity, params, format, order } = req;
  const size = req.binding.options.streamPageSize ?? DEFAULT_PAGE_SIZE;
  const svc = scope.cradle.api4 as Api4Service;
  // The walk needs each row's id; a select without it fetches it (after the caller's fields) and drops it,
  // unless a chain is given, with which the buffered get returns it too.
  const select = params.select as string[] | undefined;
  const dropId = !!select?.length && !select.includes('id') && !select.includes('*') && !params.chain;
  const pageParams = { ...params, ...(dropId ? { select: [...select!, 'id'] } : {}), limit: size };
  const read = (extra: Obj) =>
    svc.call({ entity, action: 'get', params: { ...pageParams, ...extra, checkPermissions: true }, principal, scope });
  const first = await read({});
  const rows = first.values as Obj[];
  // Only secret fields selected: the buffered get reads nothing (no row at all), so it answers this one.
  if (dropId && rows.length && Object.keys(rows[0]).length === 1) return whole(req, { ...first, values: [] }, []);
  let last = Number(rows[rows.length - 1]?.id);
  if (dropId) for (const row of rows) delete row.id;
  if (rows.length < size) return whole(req, first, rows);
  const res = ctx.res;
  ctx.respond = false;
  ctx.status = 200;
  res.statusCode = 200;
  res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  if (format === 'csv') res.setHeader('Content-Disposition', `attachment; filename="${first.entity}.csv"`);
  const columns = csvColumns(rows, select);
  const render = (page: Obj[], start: boolean): string => {
    if (format === 'json') return (start ? '{"values":[' : ',') + JSON.stringify(page).slice(1, -1);
    let text = start ? csvLine(columns) : '';
    for (const row of page) text += csvLine(columns.map((column) => row[column]));
    return text;
  };
  let count = rows.length;
  const where = Array.isArray(params.where) ? params.where : [];
  try {
    await put(res, render(rows, true));
    for (let page = rows; page.length === size;) {
      const next = await read({ offset: 0, where: [...where, ['id', order === 'ASC' ? '>' : '<', last]] });
      page = next.values as Obj[];
      if (!page.length) break;
      last = Number(page[page.length - 1].id);
      if (dropId) for (const row of page) delete row.id;
      count += page.length;
      await put(res, render(page, false));
    }
    // The envelope after its `values`: rendered with `values: 0`, less its first 12 characters `{"values":0,`.
    if (format === 'json')
      await put(res, '],' + JSON.stringify(envelope({ ...first, count, countFetched: count }, 0)).slice(12));
    res.end();
  } catch (err) {
    stopped(req, err, count);
  }
}

/** A result that fits in one page: one body, as the one-call path answers it. */
function whole(req: StreamRequest, result: Api4Result, rows: Obj[]): void {
  if (req.format === 'csv') return sendCsv(req.ctx, result.entity, rows, req.params.select);
  sendJson(req.ctx, 200, envelope({ ...result, count: rows.length, countFetched: rows.length }, rows));
}

/** A walk that cannot go on after the first byte: the connection is closed, and the reason logged. */
function stopped(req: StreamRequest, err: unknown, written: number): void {
  const { ctx, binding } = req;
  // What was written is flushed, then the connection closes without the last chunk: an incomplete answer.
  const socket = ctx.res.socket;
  if (socket && !(err instanceof ClientGone)) socket.end();
  else ctx.res.destroy();
  const fields = { requestId: ctx.state.requestId, entity: req.entity, rowsWritten: written };
  if (err instanceof ClientGone) {
    binding.log.info(fields, `APIv4 get stream stopped: ${err.message}`);
    return;
  }
  const error = isKernelError(err) ? err : new KernelError('E_INTERNAL', String((err as Error)?.message ?? err));
  binding.log.error(
    { ...fields, code: error.code, err },
    `APIv4 get stream cut off after ${written} rows: ${error.message}`,
  );
}
