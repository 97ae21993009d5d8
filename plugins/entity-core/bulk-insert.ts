/**
 * Many rows in one INSERT … SELECT FROM unnest(…) RETURNING: one array parameter per column instead of one
 * parameter per value, which PostgreSQL parses and binds several times faster than a VALUES list of a
 * thousand rows. Rows that name different columns are inserted in groups (a missing column takes its
 * default), and the stored rows come back in the order given. Column types come from metadata.
 */
import type { Knex } from 'knex';
import { columnName, sqlType } from './schema';
import type { CompiledEntity, FieldDef } from './types';
import { fromDb, type FieldCipher } from './values';

type Row = Record<string, unknown>;

/** The array type a column's values are sent as (text for varchar: the column's own length check applies). */
function arrayType(entity: CompiledEntity, field: FieldDef): string {
  const type = sqlType(entity.name, field);
  if (type.startsWith('varchar') || type === 'text') return 'text[]';
  if (type.startsWith('numeric')) return 'numeric[]';
  return `${type === 'serial' ? 'integer' : type}[]`;
}

/** A PostgreSQL array literal of the values (text elements quoted, NULL for null). */
function arrayLiteral(values: unknown[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'boolean') return value ? 't' : 'f';
    if (typeof value === 'number') return String(value);
    const text = String(value);
    // Most values hold neither quote nor backslash: two native scans instead of a regex replace per value.
    return text.includes('"') || text.includes('\\') ? `"${text.replace(/["\\]/g, '\\$&')}"` : `"${text}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * The rows' indexes grouped by their columns (sorted, comma-joined), in first-seen order. A batch's rows
 * usually carry the same keys in the same order: a row whose keys are the previous row's joins its group
 * without sorting them again.
 */
export function groupByColumns(rows: Row[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  let previous: string[] = [];
  let group: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const keys = Object.keys(rows[i]);
    if (i === 0 || !sameList(keys, previous)) {
      const key = [...keys].sort().join(',');
      group = groups.get(key) ?? [];
      if (!group.length) groups.set(key, group);
      previous = keys;
    }
    group.push(i);
  }
  return groups;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((item, index) => item === b[index]);

/** Whether every value can travel as array-literal text (a Date or other object keeps the driver's own encoding). */
export function unnestable(rows: Row[]): boolean {
  return rows.every((row) =>
    Object.values(row).every((value) => value === null || value === undefined || typeof value !== 'object'),
  );
}

/**
 * Inserts `rows` (column names → database values); returns the RETURNING rows in the same order, each an array
 * of the `returning` columns' values.
 */
export async function insertUnnest(
  db: Knex,
  entity: CompiledEntity,
  rows: Row[],
  returning: string[],
): Promise<unknown[][]> {
  const fieldOf = new Map(entity.fields.map((field) => [columnName(field), field]));
  const groups = groupByColumns(rows);
  const out: unknown[][] = new Array(rows.length);
  for (const [key, indexes] of groups) {
    const columns = key ? key.split(',') : [];
    const returned = columns.length
      ? ((
          await db
            .raw(
              `insert into ?? (${columns.map(() => '??').join(', ')}) select * from unnest(${columns
                .map((column) => `?::${arrayType(entity, fieldOf.get(column)!)}`)
                .join(', ')}) returning ${returning.map(() => '??').join(', ')}`,
              [
                entity.table,
                ...columns,
                ...columns.map((column) => arrayLiteral(indexes.map((i) => rows[i][column]))),
                ...returning,
              ],
            )
            .options({ rowMode: 'array' })
        ).rows as unknown[][])
      : ((await db(entity.table)
          .insert(indexes.map(() => ({})))
          .returning(returning)
          .options({ rowMode: 'array' })) as unknown[][]);
    indexes.forEach((index, k) => (out[index] = returned[k]));
  }
  return out;
}

/** The RETURNING columns of a write, and a returned row (by column name, or as an array in their order) as fields. */
export type Returning = { columns: string[]; map: (row: Row) => Row; fromArray: (row: unknown[]) => Row };

export function returningOf(fields: FieldDef[], cipher?: FieldCipher): Returning {
  const columns = fields.map((field) => field.column ?? field.name);
  const fromArray = (row: unknown[]) => {
    const out: Row = {};
    for (let i = 0; i < fields.length; i++) out[fields[i].name] = fromDb(fields[i], row[i], cipher);
    return out;
  };
  return { columns, fromArray, map: (row) => fromArray(columns.map((column) => row[column])) };
}
