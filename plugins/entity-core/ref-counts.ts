/**
 * getrefcount (4.5.0): the rows elsewhere that point at one record, by the three kinds of reference the
 * reference system counts — a standard foreign key, a dynamic `entity_table` + `entity_id` pair, and, for an
 * option value, the fields whose pseudo-constant is that option's group (the row holds the option's value).
 * Each kind answers with the reference's class name as `type`; only non-zero counts are listed.
 */
import type { Knex } from 'knex';
import { referenceTable, type EntityRegistry } from './registry';
import type { CompiledEntity, FieldDef } from './types';

export interface RefCount {
  name: string;
  type: 'CRM_Core_Reference_Basic' | 'CRM_Core_Reference_Dynamic' | 'CRM_Core_Reference_OptionValue';
  table: string;
  key: string;
  count: number;
}

type Count = (query: Knex.QueryBuilder) => Promise<number>;

const countRows: Count = async (query) => {
  const [row] = (await query.count({ n: '*' })) as Array<{ n: string }>;
  return Number(row.n);
};

/** The option value's group name and value, when `entity` is OptionValue and the row exists. */
async function optionOf(
  db: Knex,
  entity: CompiledEntity,
  id: number,
): Promise<{ group: string; value: string } | null> {
  if (entity.name !== 'OptionValue') return null;
  const row = (await db(entity.table)
    .join('crm_option_group', 'crm_option_group.id', `${entity.table}.option_group_id`)
    .where(`${entity.table}.id`, id)
    .first({ group: 'crm_option_group.name', value: `${entity.table}.value` })) as
    { group: string; value: string } | undefined;
  return row ?? null;
}

/** Rows of `table` whose option field holds `value`: equal, or one of the items of a separator-serialized list. */
function optionMatch(db: Knex, table: string, column: string, field: FieldDef, value: string): Knex.QueryBuilder {
  if (field.serialize === 'json') return db(table).whereRaw('?? ::jsonb \\? ?', [column, value]);
  if (field.serialize) return db(table).where(column, 'like', `%\x01${value.replace(/[\\%_]/g, '\\$&')}\x01%`);
  return db(table).where(column, value);
}

export async function referenceCounts(
  db: Knex,
  registry: EntityRegistry,
  entity: CompiledEntity,
  id: number,
): Promise<RefCount[]> {
  const out: RefCount[] = [];
  const add = (type: RefCount['type'], table: string, key: string, count: number) => {
    if (count) out.push({ name: `sql:${table}:${key}`, type, table, key, count });
  };
  const option = await optionOf(db, entity, id);
  const ownTables = [entity.table, referenceTable(entity.name)];
  for (const name of registry.names()) {
    const other = registry.get(name);
    for (const field of other.fields) {
      if (field.related || field.via || field.labelOf || field.collection) continue;
      const column = field.column ?? field.name;
      if (field.fk === entity.name) {
        add('CRM_Core_Reference_Basic', other.table, column, await countRows(db(other.table).where(column, id)));
      }
      const dynamic = field.dynamicFk;
      if (dynamic && (!dynamic.entities || dynamic.entities.includes(entity.name))) {
        const tableColumn = other.byName.get(dynamic.tableField)?.column ?? dynamic.tableField;
        const query = db(other.table).whereIn(tableColumn, ownTables).where(column, id);
        add('CRM_Core_Reference_Dynamic', other.table, column, await countRows(query));
      }
      if (option && field.optionGroup === option.group) {
        const query = optionMatch(db, other.table, column, field, option.value);
        add('CRM_Core_Reference_OptionValue', other.table, column, await countRows(query));
      }
    }
  }
  return out;
}
