/**
 * The database schema as data, derived from entity metadata (docs/adr/0009). A plugin's checked-in
 * `migrations/schema.json` is a `SchemaSnapshot`; `diffSchemas` turns the difference between two snapshots
 * into `SchemaStep`s, which a migration carries as data and `applySchemaSteps` (ddl.ts) runs. No migration
 * names a column by hand.
 */
import type { EntityDef, FieldDef, IndexDef } from './types';

export type OnDelete = 'cascade' | 'set null' | 'restrict';

export interface ColumnSchema {
  name: string;
  /** SQL type as written in DDL: `serial`, `integer`, `varchar(64)`, `numeric(20,2)`, `jsonb`… */
  type: string;
  notNull?: boolean;
  /** SQL default expression: `false`, `0`, `'text'`, `CURRENT_TIMESTAMP`. */
  default?: string;
  primaryKey?: boolean;
}

export interface IndexSchema {
  /** The database name: `<table>_<IndexDef.name>`, lower case. */
  name: string;
  /** Column names, or SQL expressions over them. */
  columns: string[];
  unique?: boolean;
  include?: string[];
  opclass?: string;
  where?: string;
}

export interface ForeignKeySchema {
  /** `<table>_<column>_foreign`. */
  name: string;
  column: string;
  references: { table: string; column: string };
  onDelete: OnDelete;
}

export interface TableSchema {
  columns: ColumnSchema[];
  indexes: IndexSchema[];
  foreignKeys: ForeignKeySchema[];
}

export interface SchemaSnapshot {
  tables: Record<string, TableSchema>;
}

/** One DDL step. Steps that remove something carry what they remove, so a migration can be reverted. */
export type SchemaStep =
  | { op: 'createTable'; table: string; columns: ColumnSchema[] }
  | { op: 'dropTable'; table: string; was: TableSchema }
  | { op: 'addColumn'; table: string; column: ColumnSchema }
  | { op: 'dropColumn'; table: string; column: ColumnSchema }
  | { op: 'alterColumn'; table: string; column: ColumnSchema; was: ColumnSchema }
  | { op: 'createIndex'; table: string; index: IndexSchema }
  | { op: 'dropIndex'; table: string; index: IndexSchema }
  | { op: 'addForeignKey'; table: string; foreignKey: ForeignKeySchema }
  | { op: 'dropForeignKey'; table: string; foreignKey: ForeignKeySchema };

export const emptySnapshot = (): SchemaSnapshot => ({ tables: {} });

/** A field that is stored in the entity's own table (computed fields are not). */
export const isColumn = (field: FieldDef): boolean => !field.related && !field.labelOf && !field.via;

export const columnName = (field: FieldDef): string => field.column ?? field.name;

/** The SQL type of a stored field (`serial` for `id`). */
export function sqlType(entity: string, field: FieldDef): string {
  if (field.name === 'id' && field.type === 'Int') return 'serial';
  const length = field.maxlength ?? 255;
  switch (field.type) {
    case 'Int':
      return 'integer';
    case 'String':
    case 'Email':
    case 'Url':
      return `varchar(${length})`;
    case 'Text':
      return 'text';
    case 'Boolean':
      return 'boolean';
    case 'Date':
      return 'date';
    case 'Timestamp':
      return 'timestamp';
    case 'Float':
      return field.precision ? `numeric(${field.precision[0]},${field.precision[1]})` : 'double precision';
    case 'Money': {
      const [precision, scale] = field.precision ?? [20, 2];
      return `numeric(${precision},${scale})`;
    }
    case 'Json':
      return 'jsonb';
    default:
      throw new Error(`Entity ${entity}: field ${field.name} has unknown type ${String(field.type)}`);
  }
}

/** The SQL literal of a metadata default. */
export function sqlDefault(value: FieldDef['default']): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return 'CURRENT_TIMESTAMP';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

function columnOf(entity: EntityDef, field: FieldDef): ColumnSchema {
  if (field.name === 'id' && field.type === 'Int') return { name: columnName(field), type: 'serial', primaryKey: true };
  const column: ColumnSchema = { name: columnName(field), type: sqlType(entity.name, field) };
  if (field.required) column.notNull = true;
  const fallback = sqlDefault(field.default);
  if (fallback !== undefined) column.default = fallback;
  return column;
}

function indexOf(entity: EntityDef, index: IndexDef): IndexSchema {
  // A plain field name becomes its column; anything else is an SQL expression the author wrote.
  const toColumn = (key: string) => {
    const field = entity.fields.find((f) => f.name === key);
    return field ? columnName(field) : key;
  };
  const out: IndexSchema = { name: `${entity.table}_${index.name.toLowerCase()}`, columns: index.fields.map(toColumn) };
  if (index.unique) out.unique = true;
  if (index.include?.length) out.include = index.include.map(toColumn);
  if (index.opclass) out.opclass = index.opclass;
  if (index.where) out.where = index.where;
  return out;
}

/**
 * The table an entity declares. `tableOf` resolves an FK's target entity to its table (entities of other
 * plugins included); it throws for an unknown entity.
 */
export function tableFromEntity(entity: EntityDef, tableOf: (entityName: string) => string): TableSchema {
  const fields = entity.fields.filter(isColumn);
  const byName = new Set(fields.map((f) => f.name));
  for (const field of fields) {
    if (field.dynamicFk && !byName.has(field.dynamicFk.tableField))
      throw new Error(`Entity ${entity.name}: ${field.name}.dynamicFk names no field ${field.dynamicFk.tableField}`);
  }
  return {
    columns: fields.map((f) => columnOf(entity, f)),
    indexes: (entity.indexes ?? []).map((index) => indexOf(entity, index)),
    foreignKeys: fields
      .filter((f) => f.fk)
      .map((f) => ({
        name: `${entity.table}_${columnName(f)}_foreign`,
        column: columnName(f),
        references: { table: tableOf(f.fk!), column: 'id' },
        onDelete: f.onDelete ?? 'set null',
      })),
  };
}

/** The snapshot of a plugin's entities. */
export function snapshotFromEntities(entities: EntityDef[], tableOf: (entityName: string) => string): SchemaSnapshot {
  const tables: Record<string, TableSchema> = {};
  for (const entity of entities) tables[entity.table] = tableFromEntity(entity, tableOf);
  return { tables };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The steps that turn `from` into `to`, in an order the database accepts: constraints and indexes go
 * before the columns and tables they use, and come back after them.
 */
export function diffSchemas(from: SchemaSnapshot, to: SchemaSnapshot): SchemaStep[] {
  const drops: SchemaStep[] = [];
  const tables: SchemaStep[] = [];
  const columns: SchemaStep[] = [];
  const adds: SchemaStep[] = [];
  for (const [table, was] of Object.entries(from.tables)) {
    const now = to.tables[table];
    for (const fk of was.foreignKeys)
      if (
        !now ||
        !same(
          fk,
          now.foreignKeys.find((x) => x.name === fk.name),
        )
      )
        drops.push({ op: 'dropForeignKey', table, foreignKey: fk });
    for (const index of was.indexes)
      if (
        !now ||
        !same(
          index,
          now.indexes.find((x) => x.name === index.name),
        )
      )
        drops.push({ op: 'dropIndex', table, index });
    if (!now) tables.push({ op: 'dropTable', table, was });
  }
  for (const [table, now] of Object.entries(to.tables)) {
    const was = from.tables[table];
    if (!was) tables.push({ op: 'createTable', table, columns: now.columns });
    else {
      for (const column of now.columns) {
        const old = was.columns.find((c) => c.name === column.name);
        if (!old) columns.push({ op: 'addColumn', table, column });
        else if (!same(old, column)) columns.push({ op: 'alterColumn', table, column, was: old });
      }
      for (const column of was.columns)
        if (!now.columns.some((c) => c.name === column.name)) columns.push({ op: 'dropColumn', table, column });
    }
    for (const index of now.indexes)
      if (
        !was ||
        !same(
          index,
          was.indexes.find((x) => x.name === index.name),
        )
      )
        adds.push({ op: 'createIndex', table, index });
    for (const fk of now.foreignKeys)
      if (
        !was ||
        !same(
          fk,
          was.foreignKeys.find((x) => x.name === fk.name),
        )
      )
        adds.push({ op: 'addForeignKey', table, foreignKey: fk });
  }
  return [...drops, ...tables, ...columns, ...adds];
}

/** The snapshot after `steps` (what a plugin's migrations produce, folded without a database). */
export function foldSteps(start: SchemaSnapshot, steps: SchemaStep[]): SchemaSnapshot {
  const tables: Record<string, TableSchema> = structuredClone(start.tables);
  const get = (table: string) => {
    const found = tables[table];
    if (!found) throw new Error(`Schema step on unknown table ${table}`);
    return found;
  };
  for (const step of steps) {
    switch (step.op) {
      case 'createTable':
        tables[step.table] = { columns: structuredClone(step.columns), indexes: [], foreignKeys: [] };
        break;
      case 'dropTable':
        delete tables[step.table];
        break;
      case 'addColumn':
        get(step.table).columns.push(structuredClone(step.column));
        break;
      case 'dropColumn':
        get(step.table).columns = get(step.table).columns.filter((c) => c.name !== step.column.name);
        break;
      case 'alterColumn':
        get(step.table).columns = get(step.table).columns.map((c) =>
          c.name === step.column.name ? structuredClone(step.column) : c,
        );
        break;
      case 'createIndex':
        get(step.table).indexes.push(structuredClone(step.index));
        break;
      case 'dropIndex':
        get(step.table).indexes = get(step.table).indexes.filter((x) => x.name !== step.index.name);
        break;
      case 'addForeignKey':
        get(step.table).foreignKeys.push(structuredClone(step.foreignKey));
        break;
      case 'dropForeignKey':
        get(step.table).foreignKeys = get(step.table).foreignKeys.filter((x) => x.name !== step.foreignKey.name);
        break;
    }
  }
  return { tables };
}

/** The same snapshot with tables, columns, indexes and keys in name order (for comparing). */
export function normalizeSnapshot(snapshot: SchemaSnapshot): SchemaSnapshot {
  const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
  const tables: Record<string, TableSchema> = {};
  for (const table of Object.keys(snapshot.tables).sort()) {
    const { columns, indexes, foreignKeys } = snapshot.tables[table];
    tables[table] = { columns: byName(columns), indexes: byName(indexes), foreignKeys: byName(foreignKeys) };
  }
  return { tables };
}
