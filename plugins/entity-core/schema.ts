/**
 * The database schema as data, derived from entity metadata (docs/adr/0009). A plugin's checked-in
 * `migrations/schema.json` is a `SchemaSnapshot`; `diffSchemas` (schema-diff.ts) turns the difference between
 * two snapshots into `SchemaStep`s, which a migration carries as data and `applySchemaSteps` (ddl.ts) runs.
 * No migration names a column by hand.
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
export const isColumn = (field: FieldDef): boolean =>
  !field.related && !field.labelOf && !field.via && !field.collection;

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
      // Ciphertext is text: an encrypted structure is stored as its sealed JSON text.
      return field.encrypted ? 'text' : 'jsonb';
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
