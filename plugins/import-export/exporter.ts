/**
 * `crm export`: an entity's rows through APIv4 `get` (its select, where, joins and row rules) in keyset
 * pages (api4's `keysetPages`: by id, or by one sort field then id), each page written before the next
 * is read, so memory holds one page whatever the total. CSV cells a spreadsheet would run are
 * neutralised; JSON is one array, written as it goes.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { KernelError } from '../../kernel';
import { csvLine, keysetPages, type Keyset } from '../api4';

type Row = Record<string, unknown>;
/** One APIv4 `get` page (the caller binds entity, principal and scope). */
export type PageReader = (params: Row) => Promise<Row[]>;

export interface ExportRequest {
  select?: string[];
  where?: unknown[];
  format: 'csv' | 'json';
  pageSize: number;
  /** The order (default: by id); a field the caller checked with api4's `walkableSort`. */
  sort?: Keyset;
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
  const keyset = request.sort ?? { field: 'id', dir: 'ASC' };
  // The walk reads each row's id and sort value: fetched when the select lacks them, and left out of the file.
  const added = select.includes('*') ? [] : [...new Set(['id', keyset.field])].filter((f) => !select.includes(f));
  let count = 0;
  let columns: string[] | undefined = select.includes('*') ? undefined : select;
  if (request.format === 'json') await put(out, '[');
  else if (columns) await put(out, csvLine(columns));
  const pages = keysetPages(keyset, request.pageSize, (after) =>
    read({
      select: [...select, ...added],
      where: [...(request.where ?? []), ...(after ? [after] : [])],
      orderBy: { [keyset.field]: keyset.dir },
      limit: request.pageSize,
    }),
  );
  for await (const rows of pages) {
    let text = '';
    for (const row of rows) {
      for (const field of added) delete row[field];
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
  }
  if (request.format === 'json') await put(out, count ? '\n]\n' : ']\n');
  return count;
}
