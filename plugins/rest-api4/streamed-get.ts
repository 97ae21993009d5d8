/**
 * An APIv4 `get` without a limit, answered page by page (issue 18): the rows are read through the api4
 * `get` itself (its select, where, joins, suffixes, chains and row access) in keyset pages (keyset.ts: by id,
 * or by the one field sorted on, then id), and each page is written before the next is read, so the
 * server holds one page whatever the total. The rows and their order are the buffered answer's: a read is
 * always ordered by id after the caller's sort (entity-core's plain query appends `t.id`), so a walk in that
 * order is the buffered order. A result that fits in the first page is answered as one body, as before.
 *
 * JSON is the buffered envelope byte for byte: `{"values":[` the rows `],"entity":…,"count":N,…}`, `count`
 * and `countFetched` after the rows (where `JSON.stringify` puts them too). A failure before the first
 * byte is the usual error answer; after it the connection is closed (the client sees a cut-off answer,
 * never a complete-looking one) and the failure is logged.
 */
import type { ServerResponse } from 'node:http';
import type { AwilixContainer } from 'awilix';
import type { Context } from 'koa';
import { isKernelError, KernelError, type Cradle, type Principal } from '../../kernel';
import { csvLine, keysetPages, type Api4Result, type Api4Service, type Keyset } from '../api4';
import { csvColumns, envelope, sendCsv, sendJson, type Format } from './answers';
import type { RestApi4Binding } from './routes';

type Obj = Record<string, unknown>;

export const DEFAULT_PAGE_SIZE = 5000;

export interface StreamRequest {
  ctx: Context;
  scope: AwilixContainer<Cradle>;
  principal: Principal;
  entity: string;
  params: Obj;
  format: Format;
  keyset: Keyset;
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
  const { ctx, scope, principal, entity, params, format, keyset } = req;
  const size = req.binding.options.streamPageSize ?? DEFAULT_PAGE_SIZE;
  const svc = scope.cradle.api4 as Api4Service;
  // The walk needs each row's id and sort value; a select without them fetches them (after the caller's
  // fields) and drops them, except an id with a chain, with which the buffered get returns it too.
  const select = params.select as string[] | undefined;
  const lacks = (field: string) => !!select?.length && !select.includes(field) && !select.includes('*');
  const added = [...new Set([keyset.field, 'id'])].filter((field) => lacks(field) && !(field === 'id' && params.chain));
  const pageParams = { ...params, ...(added.length ? { select: [...select!, ...added] } : {}), limit: size };
  const read = async (extra: Obj) =>
    svc.call({ entity, action: 'get', params: { ...pageParams, ...extra, checkPermissions: true }, principal, scope });
  const drop = (page: Obj[]) => {
    if (added.length) for (const row of page) for (const field of added) delete row[field];
  };
  const where = Array.isArray(params.where) ? params.where : [];
  let first: Api4Result | undefined;
  const pages = keysetPages(keyset, size, async (after) => {
    const result = await read(after ? { offset: 0, where: [...where, after] } : {});
    first ??= result;
    return result.values as Obj[];
  });
  const head = await pages.next();
  const rows = head.done ? [] : head.value;
  const result = first as Api4Result; // the first read's, whatever it held
  // Only secret fields selected: the buffered get reads nothing (no row at all), so it answers this one.
  if (added.length && rows.length && Object.keys(rows[0]).length === added.length)
    return whole(req, { ...result, values: [] }, []);
  drop(rows);
  if (rows.length < size) return whole(req, result, rows);
  const res = ctx.res;
  ctx.respond = false;
  ctx.status = 200;
  res.statusCode = 200;
  res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  if (format === 'csv') res.setHeader('Content-Disposition', `attachment; filename="${result.entity}.csv"`);
  const columns = csvColumns(rows, select);
  const render = (page: Obj[], start: boolean): string => {
    if (format === 'json') return (start ? '{"values":[' : ',') + JSON.stringify(page).slice(1, -1);
    let text = start ? csvLine(columns) : '';
    for (const row of page) text += csvLine(columns.map((column) => row[column]));
    return text;
  };
  let count = rows.length;
  try {
    await put(res, render(rows, true));
    for await (const page of pages) {
      drop(page);
      count += page.length;
      await put(res, render(page, false));
    }
    // The envelope after its `values`: rendered with `values: 0`, less its first 12 characters `{"values":0,`.
    if (format === 'json')
      await put(res, '],' + JSON.stringify(envelope({ ...result, count, countFetched: count }, 0)).slice(12));
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
