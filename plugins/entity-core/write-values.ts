/** The per-row parts of a write that look at the entity's fields: starting values, mandatory fields. */
import { KernelError } from '../../kernel';
import { Link } from './link';
import type { CompiledEntity, FieldDef } from './types';

type Row = Record<string, unknown>;

/** The values a write starts from: the input without its id, and on create the fields' API defaults. */
export function initialValues(entity: CompiledEntity, input: Row, existing: Row | null): Row {
  // Copied without `id` rather than deleted after: a `delete` turns the object into a slow dictionary for
  // every later read and write of its values (measured: the defaults' loop was the import's hottest line).
  const values: Row = {};
  for (const key of Object.keys(input)) {
    if (key === 'id') continue;
    if (!entity.byName.has(key)) {
      if (input[key] === undefined) continue; // not sent
      throw unknownField(entity, key);
    }
    values[key] = input[key];
  }
  if (!existing)
    for (const field of shapeOf(entity).defaulted)
      if (values[field.name] === undefined) values[field.name] = field.apiDefault;
  return values;
}

/**
 * The fields a write looks at on every row, found once per field list (a batch has thousands of rows; adding a
 * field gives an entity a new list).
 */
const shapes = new WeakMap<readonly FieldDef[], WriteShape>();
interface WriteShape {
  defaulted: FieldDef[];
  required: FieldDef[];
  /** Collections (a contact's groups): taken out of the row and saved after it. */
  collections: FieldDef[];
  /** Dynamic references (`entity_table` + `entity_id`), checked on every write. */
  dynamic: FieldDef[];
}
export function shapeOf(entity: CompiledEntity): WriteShape {
  let shape = shapes.get(entity.fields);
  if (!shape) {
    shape = {
      defaulted: entity.fields.filter((f) => f.apiDefault !== undefined),
      required: entity.fields.filter((f) => f.apiRequired),
      collections: entity.fields.filter((f) => f.collection),
      dynamic: entity.fields.filter((f) => f.dynamicFk),
    };
    shapes.set(entity.fields, shape);
  }
  return shape;
}

/** A structure given to a text field (and left so by the taps) is stored as its JSON text. */
export function structuresAsText(entity: CompiledEntity, values: Row): void {
  for (const name in values) {
    const value = values[name];
    if (
      value !== null &&
      typeof value === 'object' &&
      !(value instanceof Date) &&
      !(value instanceof Link) &&
      !entity.byName.get(name)?.serialize
    )
      values[name] = JSON.stringify(value);
  }
}

/**
 * A name in a write's values that is no field of the entity: refused, never dropped in silence. The APIs refuse
 * such names in their own words before the service; this catches in-process callers (lifecycle code, the
 * import). Values a tap reads that are not fields (Contact's `email`…) travel in the save's `params`.
 */
export function unknownField(entity: CompiledEntity, name: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', `'${name}' is not a field of ${entity.name}`, {
    details: { error_code: 'unknown_field', error_field: name },
  });
}

export function mandatory(fields: string[], entity: CompiledEntity): KernelError {
  return new KernelError('E_INVALID_PARAMS', `Mandatory values missing from ${entity.name}: ${fields.join(', ')}`, {
    details: { error_code: 'mandatory_missing', fields },
  });
}

/**
 * Whether SQL an afterSave hook sent may have changed rows of `table` (an UPDATE of it, or of anything named
 * in a statement we cannot read): then the row just written is read again. Writes to other tables (a
 * contribution's line items, a contact's email) leave the RETURNING row as it is.
 */
export function changesTable(sent: string[], table: string): boolean {
  const own = new RegExp(`^\\s*update\\s+"?${table}"?[\\s"]`, 'i');
  // A WITH statement (a linked create's inserts) changes the table only where one of its parts updates it.
  const within = new RegExp(`\\bupdate\\s+"?${table}"?[\\s"]`, 'i');
  return sent.some((sql) =>
    /^\s*with\b/i.test(sql) ? within.test(sql) : own.test(sql) || !/^\s*(insert|select|delete|update)\b/i.test(sql),
  );
}
