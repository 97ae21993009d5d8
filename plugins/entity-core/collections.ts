/**
 * Collection fields (FieldDef.collection): a value kept as rows of a child entity, as the reference keeps an
 * activity's source, target and assignee contacts in ActivityContact. Reading selects the child rows'
 * values with a correlated subquery (a list, or the first with `single`); a filter becomes EXISTS / NOT
 * EXISTS over the child rows; a write replaces this field's child rows after the record's own write, in
 * its transaction. Identifiers come from metadata; values are bound.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { Condition, Filter, Operator } from './conditions';
import type { EntityRegistry } from './registry';
import type { CompiledEntity, FieldDef } from './types';
import { toDbValue } from './values';
import { shapeOf } from './write-values';

type Row = Record<string, unknown>;
type Collection = NonNullable<FieldDef['collection']>;

/** Whether a field takes and gives a list (a serialized column, or a collection that is not `single`). */
export const isList = (field: FieldDef): boolean =>
  Boolean(field.serialize) || Boolean(field.collection && !field.collection.single);

/** Operators whose match on a collection means "some child row matches" (the others negate one of these). */
const NEGATED: Partial<Record<Operator, Operator>> = {
  '!=': '=',
  '<>': '=',
  'NOT IN': 'IN',
  'NOT LIKE': 'LIKE',
  'NOT CONTAINS': 'IN',
};

/** A filter on a collection field as conditions on the child rows (EXISTS, or NOT EXISTS for negations). */
export function collectionCondition(field: FieldDef, filter: Filter): Condition {
  const collection = field.collection!;
  const own: Condition[] = Object.entries(collection.where ?? {}).map(([path, value]) => ({ path, op: '=', value }));
  const rowsWhere = (extra: Condition[]): Condition => ({
    exists: { entity: collection.entity, field: collection.fk, where: [...own, ...extra] },
  });
  const op = filter.op.toUpperCase() as Operator;
  if (op === 'IS NULL' || op === 'IS EMPTY') return { not: rowsWhere([]) };
  if (op === 'IS NOT NULL' || op === 'IS NOT EMPTY') return rowsWhere([]);
  if (op === 'CONTAINS') return rowsWhere([{ path: collection.field, op: 'IN', value: listOf(filter.value) }]);
  const negated = NEGATED[op];
  if (negated) return { not: rowsWhere([{ path: collection.field, op: negated, value: filter.value }]) };
  return rowsWhere([{ path: collection.field, op, value: filter.value }]);
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** The select expression of a collection field, correlated to `rootAlias` (the record's table alias). */
export function collectionSelect(
  registry: EntityRegistry,
  field: FieldDef,
  rootAlias: string,
): { sql: string; bindings: Knex.Value[] } {
  const collection = field.collection!;
  const child = registry.get(collection.entity);
  const column = (name: string) => {
    const found = child.byName.get(name);
    if (!found) throw new KernelError('E_INTERNAL', `${child.name} has no field ${name} (collection ${field.name})`);
    return found;
  };
  const bindings: Knex.Value[] = [
    `coll.${columnOf(column(collection.field))}`,
    child.table,
    `coll.${columnOf(column(collection.fk))}`,
    `${rootAlias}.id`,
  ];
  let where = '?? = ??';
  for (const [name, wanted] of Object.entries(collection.where ?? {})) {
    const target = column(name);
    where += ' and ?? = ?';
    bindings.push(`coll.${columnOf(target)}`, toDbValue(target, wanted) as Knex.Value);
  }
  const sql = collection.single
    ? `(select ?? from ?? as coll where ${where} order by coll.id limit 1)`
    : `(select array_agg(?? order by coll.id) from ?? as coll where ${where})`;
  return { sql, bindings };
}

const columnOf = (field: FieldDef) => field.column ?? field.name;

/** The collection values a write carries, taken out of `values` (they are not columns of the record). */
export function takeCollections(entity: CompiledEntity, values: Row): ReadonlyMap<FieldDef, unknown> {
  let taken: Map<FieldDef, unknown> | undefined;
  for (const field of shapeOf(entity).collections) {
    if (values[field.name] === undefined) continue;
    (taken ??= new Map()).set(field, values[field.name]);
    delete values[field.name];
  }
  // Most writes name no collection: one shared empty answer, not a Map per row of a batch.
  return taken ?? NO_COLLECTIONS;
}

const NO_COLLECTIONS: ReadonlyMap<FieldDef, unknown> = new Map();

/** Replaces each collection's child rows of record `id` with the values given (null or [] empties it). */
export async function saveCollections(
  db: Knex,
  registry: EntityRegistry,
  id: number,
  taken: ReadonlyMap<FieldDef, unknown>,
): Promise<void> {
  for (const [field, given] of taken) {
    const collection: Collection = field.collection!;
    const child = registry.get(collection.entity);
    const fixed: Row = {};
    for (const [name, value] of Object.entries(collection.where ?? {})) {
      const target = child.byName.get(name)!;
      fixed[columnOf(target)] = toDbValue(target, value);
    }
    const fk = columnOf(child.byName.get(collection.fk)!);
    await db(child.table)
      .where({ ...fixed, [fk]: id })
      .delete();
    const items = (given === null || given === '' ? [] : listOf(given)).filter((item) => item !== null && item !== '');
    const valueField = child.byName.get(collection.field)!;
    const unique = [...new Set(items.map((item) => toDbValue(valueField, item)))];
    if (unique.length)
      await db(child.table).insert(unique.map((item) => ({ ...fixed, [fk]: id, [columnOf(valueField)]: item })));
  }
}
