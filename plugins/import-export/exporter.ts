/**
 * `crm export`: an entity's rows through APIv4 `get` (its select, where, joins and row rules) in keyset
 * pages (`id > last` ordered by id), each page written before the next is read, so memory holds one page
 * whatever the total. CSV cells a spreadsheet would run are neutralised; JSON is one array, written as it goes.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { KernelError } from '../../kernel';
import { csvLine } from '../api4';

type Row = Record<string, unknown>;
/** One APIv4 `get` page (the caller binds entity, principal and scope). */
export type PageReader = (params: Row) => Promise<Row[]>;

export interface ExportRequest {
  select?: string[];
  where?: unknown[];
  format: 'csv' | 'json';
  pageSize: number;
}

async function put(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

export function parseWhere(text: string | undefined): unknown[] {
  if (!text) return [];
  let where: unknown;
  try {
    where = JSON.parse(text);
  } catch (err) {
    throw new KernelError('E_INVALID_PARAMS', `--where is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(where))
    throw new KernelError(
      'E_INVALID_PARAMS',
      '--where must be an APIv4 where list, e.g. [["contact_type","=","Individual"]]',
    );
  return where;
}

export async function runExport(read: PageReader, out: Writable, request: ExportRequest): Promise<number> {
  const select = request.select?.length ? request.select : ['*'];
  const withId = select.includes('id') || select.includes('*') ? select : ['id', ...select];
  const dropId = withId !== select;
  let last = 0;
  let count = 0;
  let columns: string[] | undefined = select.includes('*') ? undefined : select;
  if (request.format === 'json') await put(out, '[');
  else if (columns) await put(out, csvLine(columns));
  for (;;) {
    const rows = await read({
      select: withId,
      where: [...(request.where ?? []), ['id', '>', last]],
      orderBy: { id: 'ASC' },
      limit: request.pageSize,
    });
    if (!rows.length) break;
    let text = '';
    for (const row of rows) {
      last = Number(row.id);
      if (dropId) delete row.id;
      if (request.format === 'json') text += (count ? ',\n' : '\n') + JSON.stringify(row);
      else {
        if (!columns) {
          columns = Object.keys(row);
          text += csvLine(columns);
        }
        text += csvLine(columns.map((column) => row[column]));
      }
      count += 1;
    }
    await put(out, text);
    if (rows.length < request.pageSize) break;
  }
  if (request.format === 'json') await put(out, count ? '\n]\n' : ']\n');
  return count;
}
