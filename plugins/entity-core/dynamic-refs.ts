/**
 * Dynamic references (`entity_table` + `entity_id`, as Note, EntityTag, Attachment use): the database cannot
 * hold a foreign key for them, so every write checks them here, for both APIs and lifecycle code alike.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { Entities } from './entities';
import { Link } from './link';
import { referenceTable, type EntityRegistry } from './registry';
import type { CompiledEntity } from './types';
import { shapeOf } from './write-values';

type Row = Record<string, unknown>;

function invalidReference(message: string, field: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 'invalid value', error_field: field } });
}

/**
 * Checks each dynamic reference the write sets or changes: its table names a known entity (an allowed one,
 * when the field lists them) and a row of that entity has the id. `row` is the record as it will be stored.
 */
/**
 * Rows created in a transaction, by table: a dynamic reference to one of them (a contribution's line item, the
 * tags of contacts an import just made) needs no lookup. Kept per transaction handle, so a rolled-back
 * savepoint's rows are never vouched for in the transaction around it.
 */
const created = new WeakMap<Knex, Map<string, Set<number>>>();

export function rememberCreated(db: Knex, table: string, ids: number[]): void {
  if (!db.isTransaction) return;
  let tables = created.get(db);
  if (!tables) created.set(db, (tables = new Map()));
  let known = tables.get(table);
  if (!known) tables.set(table, (known = new Set()));
  for (const id of ids) known.add(id);
}

export async function checkDynamicReferences(
  db: Knex,
  registry: EntityRegistry,
  entity: CompiledEntity,
  values: Row,
  row: Row,
): Promise<void> {
  for (const field of shapeOf(entity).dynamic) {
    const ref = field.dynamicFk!;
    if (values[field.name] === undefined && values[ref.tableField] === undefined) continue;
    const id = row[field.name];
    const table = row[ref.tableField];
    if (id === null || id === undefined || id === '') continue;
    const target = typeof table === 'string' ? registry.byTable(table) : undefined;
    if (!target || (ref.entities && !ref.entities.includes(target.name)))
      throw invalidReference(`'${String(table)}' is not a valid value for ${ref.tableField}`, ref.tableField);
    // A linked create's id of a record made in the same statement, or a row this transaction made: no look-up.
    if (id instanceof Link || created.get(db)?.get(target.table)?.has(Number(id))) continue;
    const found = await db(target.table).where('id', Number(id)).first('id');
    if (!found) throw invalidReference(`${target.name} id ${String(id)} not found (${field.name})`, field.name);
  }
}

/**
 * After a row is deleted for good: the records whose cascading dynamic reference points at it (by either
 * table name) are deleted through `entities` (a trusted binding in the same transaction), so their own
 * hooks and cascades run — a note's comments, a contact's notes and entity tags.
 */
export async function cascadeDynamicReferences(
  entities: Entities,
  registry: EntityRegistry,
  deleted: CompiledEntity,
  id: number,
): Promise<void> {
  const tables = [deleted.table, referenceTable(deleted.name)];
  for (const name of registry.names()) {
    for (const field of registry.get(name).fields) {
      const ref = field.dynamicFk;
      if (ref?.onDelete !== 'cascade' || (ref.entities && !ref.entities.includes(deleted.name))) continue;
      const rows = await entities.get(name, {
        where: [
          { path: ref.tableField, op: 'IN', value: tables },
          { path: field.name, op: '=', value: id },
        ],
        select: ['id'],
      });
      for (const row of rows) await entities.delete(name, Number(row.id));
    }
  }
}
