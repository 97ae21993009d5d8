/**
 * Reads back what a database holds for some tables, in the snapshot shape of schema.ts, so the drift test
 * can compare it with what the migrations were meant to build (information_schema, pg_index, pg_constraint).
 */
import type { Knex } from 'knex';
import { normalizeSnapshot } from './schema-diff';
import type { ColumnSchema, IndexSchema, OnDelete, SchemaSnapshot, TableSchema } from './schema';

const ON_DELETE: Record<string, OnDelete | 'no action'> = {
  c: 'cascade',
  n: 'set null',
  r: 'restrict',
  a: 'no action',
};

function typeOf(row: Record<string, unknown>): string {
  const dataType = String(row.data_type);
  if (dataType === 'character varying') return `varchar(${String(row.character_maximum_length)})`;
  if (dataType === 'timestamp without time zone') return 'timestamp';
  if (dataType === 'numeric') return `numeric(${String(row.numeric_precision)},${String(row.numeric_scale)})`;
  return dataType;
}

/** PostgreSQL prints defaults with casts (`'x'::character varying`, `'-1'::integer`); metadata writes them bare. */
function defaultOf(raw: unknown, type: string): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).replace(/::[a-z ]+(\(\d+(,\d+)?\))?$/, '');
  if (text === 'now()') return 'CURRENT_TIMESTAMP';
  if (/^'-?\d+(\.\d+)?'$/.test(text) && !type.startsWith('varchar') && type !== 'text') return text.slice(1, -1);
  return text;
}

/** What the database holds for these tables, in snapshot shape (index expressions as PostgreSQL prints them). */
export async function introspectSchema(knex: Knex, tables: string[]): Promise<SchemaSnapshot> {
  const snapshot: SchemaSnapshot = { tables: {} };
  if (!tables.length) return snapshot;
  const marks = tables.map(() => '?').join(', ');
  const table = (name: string): TableSchema =>
    (snapshot.tables[name] ??= { columns: [], indexes: [], foreignKeys: [] });
  const primary = (await knex.raw(
    `select t.relname as "table", a.attname as "column" from pg_index ix
       join pg_class t on t.oid = ix.indrelid join pg_namespace n on n.oid = t.relnamespace
       join pg_attribute a on a.attrelid = t.oid and a.attnum = any(ix.indkey)
     where ix.indisprimary and n.nspname = current_schema() and t.relname in (${marks})`,
    tables,
  )) as { rows: Array<{ table: string; column: string }> };
  const isPrimary = (t: string, c: string) => primary.rows.some((r) => r.table === t && r.column === c);
  const columns = (await knex('information_schema.columns')
    .whereRaw('table_schema = current_schema()')
    .whereIn('table_name', tables)
    .orderBy(['table_name', 'ordinal_position'])) as Array<Record<string, unknown>>;
  for (const row of columns) {
    const name = String(row.column_name);
    const tableName = String(row.table_name);
    const type = typeOf(row);
    if (isPrimary(tableName, name) && type === 'integer' && String(row.column_default).startsWith('nextval(')) {
      table(tableName).columns.push({ name, type: 'serial', primaryKey: true });
      continue;
    }
    const column: ColumnSchema = { name, type };
    if (row.is_nullable === 'NO') column.notNull = true;
    const fallback = defaultOf(row.column_default, type);
    if (fallback !== undefined) column.default = fallback;
    table(tableName).columns.push(column);
  }
  const indexes = (await knex.raw(
    `select t.relname as "table", i.relname as name, ix.indisunique as "unique", ix.indnkeyatts as keys,
            array(select pg_get_indexdef(ix.indexrelid, k, true) from generate_series(1, ix.indnatts) k) as columns,
            pg_get_expr(ix.indpred, ix.indrelid) as "where", pg_get_indexdef(ix.indexrelid) as definition
       from pg_index ix join pg_class i on i.oid = ix.indexrelid join pg_class t on t.oid = ix.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where not ix.indisprimary and n.nspname = current_schema() and t.relname in (${marks})`,
    tables,
  )) as {
    rows: Array<{
      table: string;
      name: string;
      unique: boolean;
      keys: number;
      columns: string[];
      where: string | null;
      definition: string;
    }>;
  };
  for (const row of indexes.rows) {
    const index: IndexSchema = { name: row.name, columns: row.columns.slice(0, row.keys) };
    if (row.unique) index.unique = true;
    if (row.columns.length > row.keys) index.include = row.columns.slice(row.keys);
    const opclass = /\s(\w+_ops)\b/.exec(row.definition)?.[1];
    if (opclass) index.opclass = opclass;
    if (row.where) index.where = row.where;
    table(row.table).indexes.push(index);
  }
  const keys = (await knex.raw(
    `select c.conname as name, t.relname as "table", a.attname as "column", rt.relname as ref_table,
            ra.attname as ref_column, c.confdeltype as on_delete
       from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
       join pg_class rt on rt.oid = c.confrelid
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       join pg_attribute ra on ra.attrelid = c.confrelid and ra.attnum = c.confkey[1]
      where c.contype = 'f' and n.nspname = current_schema() and t.relname in (${marks})`,
    tables,
  )) as { rows: Array<Record<string, string>> };
  for (const row of keys.rows) {
    table(row.table).foreignKeys.push({
      name: row.name,
      column: row.column,
      references: { table: row.ref_table, column: row.ref_column },
      onDelete: ON_DELETE[row.on_delete] as OnDelete,
    });
  }
  return snapshot;
}

/**
 * Index expressions and conditions as comparable text: PostgreSQL re-prints what the author wrote
 * (`lower(sort_name)` comes back as `lower((sort_name)::text)`), so casts, parentheses, quotes and
 * spaces are dropped on both sides.
 */
export function comparableSql(sql: string): string {
  return sql
    .toLowerCase()
    .replace(/::[a-z ]+(\(\d+(,\d+)?\))?/g, '')
    .replace(/[()"\s]/g, '');
}

/** A snapshot in comparable form: names in order, index expressions and conditions through `comparableSql`. */
export function comparableSnapshot(snapshot: SchemaSnapshot): SchemaSnapshot {
  const index = (i: IndexSchema): IndexSchema => ({
    ...i,
    columns: i.columns.map(comparableSql),
    ...(i.where ? { where: comparableSql(i.where) } : {}),
  });
  const tables: SchemaSnapshot['tables'] = {};
  for (const [name, table] of Object.entries(normalizeSnapshot(snapshot).tables))
    tables[name] = { ...table, indexes: table.indexes.map(index) };
  return { tables };
}
