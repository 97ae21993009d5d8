/**
 * Runs schema steps as DDL: the one shared function behind every generated migration (docs/adr/0009).
 * Identifiers are quoted; index expressions and conditions are SQL the plugin author wrote in metadata
 * (never request input).
 */
import type { Knex } from 'knex';
import type { ColumnSchema, ForeignKeySchema, IndexSchema, SchemaStep } from './schema';

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const isIdentifier = (key: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);

function columnSql(column: ColumnSchema): string {
  if (column.primaryKey) return `${quote(column.name)} ${column.type} primary key`;
  let sql = `${quote(column.name)} ${column.type}`;
  if (column.notNull) sql += ' not null';
  if (column.default !== undefined) sql += ` default ${column.default}`;
  return sql;
}

function createIndexSql(table: string, index: IndexSchema): string {
  const keys = index.columns.map(
    (key) => `${isIdentifier(key) ? quote(key) : `(${key})`}${index.opclass ? ` ${index.opclass}` : ''}`,
  );
  let sql = `create ${index.unique ? 'unique ' : ''}index ${quote(index.name)} on ${quote(table)} (${keys.join(', ')})`;
  if (index.include?.length) sql += ` include (${index.include.map(quote).join(', ')})`;
  if (index.where) sql += ` where ${index.where}`;
  return sql;
}

function addForeignKeySql(table: string, fk: ForeignKeySchema): string {
  return (
    `alter table ${quote(table)} add constraint ${quote(fk.name)} foreign key (${quote(fk.column)}) ` +
    `references ${quote(fk.references.table)} (${quote(fk.references.column)}) on delete ${fk.onDelete}`
  );
}

function alterColumnSql(table: string, column: ColumnSchema, was: ColumnSchema): string[] {
  if (column.primaryKey || was.primaryKey)
    throw new Error(`${table}.${column.name}: a primary key column cannot be altered by a generated migration`);
  const prefix = `alter table ${quote(table)} alter column ${quote(column.name)}`;
  const sql: string[] = [];
  if (column.type !== was.type) sql.push(`${prefix} type ${column.type} using ${quote(column.name)}::${column.type}`);
  if (!!column.notNull !== !!was.notNull) sql.push(`${prefix} ${column.notNull ? 'set' : 'drop'} not null`);
  if (column.default !== was.default)
    sql.push(column.default === undefined ? `${prefix} drop default` : `${prefix} set default ${column.default}`);
  return sql;
}

/** The SQL statements of one step. */
export function stepSql(step: SchemaStep): string[] {
  const table = quote(step.table);
  switch (step.op) {
    case 'createTable':
      return [`create table ${table} (${step.columns.map(columnSql).join(', ')})`];
    case 'dropTable':
      return [`drop table ${table}`];
    case 'addColumn':
      return [`alter table ${table} add column ${columnSql(step.column)}`];
    case 'dropColumn':
      return [`alter table ${table} drop column ${quote(step.column.name)}`];
    case 'alterColumn':
      return alterColumnSql(step.table, step.column, step.was);
    case 'createIndex':
      return [createIndexSql(step.table, step.index)];
    case 'dropIndex':
      return [`drop index ${quote(step.index.name)}`];
    case 'addForeignKey':
      return [addForeignKeySql(step.table, step.foreignKey)];
    case 'dropForeignKey':
      return [`alter table ${table} drop constraint ${quote(step.foreignKey.name)}`];
  }
}

/** The step that undoes `step`. */
function inverse(step: SchemaStep): SchemaStep[] {
  switch (step.op) {
    case 'createTable':
      return [{ op: 'dropTable', table: step.table, was: { columns: step.columns, indexes: [], foreignKeys: [] } }];
    case 'dropTable':
      return [
        { op: 'createTable', table: step.table, columns: step.was.columns },
        ...step.was.indexes.map((index): SchemaStep => ({ op: 'createIndex', table: step.table, index })),
        ...step.was.foreignKeys.map((foreignKey): SchemaStep => ({
          op: 'addForeignKey',
          table: step.table,
          foreignKey,
        })),
      ];
    case 'addColumn':
      return [{ op: 'dropColumn', table: step.table, column: step.column }];
    case 'dropColumn':
      return [{ op: 'addColumn', table: step.table, column: step.column }];
    case 'alterColumn':
      return [{ op: 'alterColumn', table: step.table, column: step.was, was: step.column }];
    case 'createIndex':
      return [{ op: 'dropIndex', table: step.table, index: step.index }];
    case 'dropIndex':
      return [{ op: 'createIndex', table: step.table, index: step.index }];
    case 'addForeignKey':
      return [{ op: 'dropForeignKey', table: step.table, foreignKey: step.foreignKey }];
    case 'dropForeignKey':
      return [{ op: 'addForeignKey', table: step.table, foreignKey: step.foreignKey }];
  }
}

/** Runs the steps in order (a generated migration's `up`; knex wraps it in a transaction). */
export async function applySchemaSteps(knex: Knex, steps: SchemaStep[]): Promise<void> {
  for (const step of steps) for (const sql of stepSql(step)) await knex.raw(sql);
}

/** Undoes the steps (a generated migration's `down`). */
export async function revertSchemaSteps(knex: Knex, steps: SchemaStep[]): Promise<void> {
  await applySchemaSteps(knex, [...steps].reverse().flatMap(inverse));
}
