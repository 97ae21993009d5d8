/**
 * CustomGroup and CustomField writes: generated names, table and column names (identifiers made here,
 * never taken from the caller unchecked), the checks the reference makes, options as an option group,
 * and the table kept in step (runtime.ts) in the same transaction.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { EntityLifecycle, EntityRegistry, SaveContext } from '../entity-core';
import { extendedName } from './entities/CustomGroup';
import type { CustomData } from './runtime';
import { isMultiValued } from './value-tables';

type Row = Record<string, unknown>;

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Columns every value table has, and names a custom field cannot take. */
const RESERVED = new Set(['id', 'entity_id']);
/** Widgets whose values come from options. */
const OPTION_WIDGETS = new Set(['Select', 'Radio', 'CheckBox', 'Multi-Select', 'Autocomplete-Select']);

const invalid = (message: string, field?: string) =>
  new KernelError('E_INVALID_PARAMS', message, {
    details: { error_code: 0, ...(field ? { error_field: field } : {}) },
  });

/** A machine name from a title or label, as the reference munges them: letters, digits and underscores. */
export function munge(text: string): string {
  const name = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return /^[A-Za-z]/.test(name) ? name : `field_${name}`.slice(0, 64);
}

function checkedName(values: Row, from: string, key: string): string {
  const given = values.name;
  const name =
    given === undefined || given === null || given === '' ? munge(String(values[from] ?? '')) : String(given);
  if (!NAME.test(name)) throw invalid(`${key} name '${name}' must be letters, digits and underscores`, 'name');
  return name;
}

async function nextId(db: Knex, table: string): Promise<number> {
  const { rows } = (await db.raw(`select nextval(pg_get_serial_sequence(?, 'id')) as id`, [table])) as {
    rows: Array<{ id: string | number }>;
  };
  return Number(rows[0].id);
}

export function groupLifecycle(custom: CustomData, registry: EntityRegistry): EntityLifecycle {
  return {
    async beforeSave(values, sc) {
      const name = checkedName({ ...sc.existing, ...values }, 'title', 'Custom group');
      const kind = String(values.extends ?? sc.existing?.extends ?? '');
      const extended = registry.find(extendedName(kind, (name) => !!registry.find(name)) ?? '');
      if (!extended)
        throw invalid(`Custom groups cannot extend ${kind}: not an installed entity that takes custom data`, 'extends');
      if (extended.byName.has(name) && !(sc.existing && sc.existing.name === name))
        throw invalid(`'${name}' is already a field of ${extended.name}: choose another name`, 'name');
      if (sc.existing) {
        if (values.extends !== undefined && values.extends !== sc.existing.extends)
          if (await sc.entities.count('CustomField', { custom_group_id: sc.existing.id }))
            throw invalid('A custom group that has fields cannot extend another kind of record', 'extends');
        return { ...values, name };
      }
      const id = await nextId(sc.db, 'crm_custom_group');
      return {
        ...values,
        id,
        name,
        table_name: `crm_value_${name.toLowerCase().slice(0, 40)}_${id}`,
        created_id: values.created_id ?? sc.principal.contactId ?? null,
      };
    },
    afterSave: (row, sc) => custom.changed(sc.db, Number(row.id)),
    afterDelete: (row, sc) => custom.dropTable(sc.db, String(row.table_name)),
  };
}

export function fieldLifecycle(custom: CustomData, registry: EntityRegistry): EntityLifecycle {
  return {
    params: ['option_values'],
    async beforeSave(values, sc) {
      const merged = { ...sc.existing, ...values };
      const name = checkedName(merged, 'label', 'Custom field');
      if (RESERVED.has(name.toLowerCase())) throw invalid(`'${name}' is reserved: choose another name`, 'name');
      if (
        sc.existing &&
        values.custom_group_id !== undefined &&
        Number(values.custom_group_id) !== Number(sc.existing.custom_group_id)
      )
        throw invalid('A custom field cannot move to another custom group', 'custom_group_id');
      const out: Row = { ...values, name };
      const referenceSet = !sc.existing || values.fk_entity !== undefined || values.data_type !== undefined;
      if (merged.data_type === 'EntityReference' && referenceSet) {
        // The reference requires the entity; its values are then kept real by a foreign key (value-tables.ts). A
        // change that leaves both alone (a label) is not refused if that entity's plugin has since been disabled.
        const target = registry.find(String(merged.fk_entity ?? ''));
        if (!target)
          throw invalid(
            `An EntityReference field needs fk_entity, an installed entity: not '${String(merged.fk_entity ?? '')}'`,
            'fk_entity',
          );
        out.fk_entity = target.name;
      }
      const multi = isMultiValued({ html_type: String(merged.html_type), serialize: Number(merged.serialize ?? 0) });
      if (multi) out.serialize = 1;
      // Options given to a field without an options widget would be lost: refused instead.
      if (sc.params.option_values !== undefined && !OPTION_WIDGETS.has(String(merged.html_type)))
        throw invalid(`option_values needs an options widget, not ${String(merged.html_type)}`, 'option_values');
      const id = sc.existing ? Number(sc.existing.id) : await nextId(sc.db, 'crm_custom_field');
      // An autocomplete of a reference field looks records up, not options.
      const optionsNeeded = !['Boolean', 'ContactReference', 'EntityReference'].includes(String(merged.data_type));
      if (OPTION_WIDGETS.has(String(merged.html_type)) && optionsNeeded && !merged.option_group_id)
        out.option_group_id = await optionGroupFor(sc, id, merged.label ?? name, sc.params);
      if (sc.existing) return out;
      return { ...out, id, column_name: `${name.toLowerCase().slice(0, 40)}_${id}` };
    },
    afterSave: (row, sc) => custom.changed(sc.db, Number(row.custom_group_id)),
    afterDelete: (row, sc) => custom.changed(sc.db, Number(row.custom_group_id)),
  };
}

/**
 * The option group of a field with options: made from `option_values` (`{value: label}`, or a list of
 * `{label, value, name?}`), as the reference does on create; a field with an options widget needs them.
 */
async function optionGroupFor(sc: SaveContext, fieldId: number, label: unknown, params: Row): Promise<number> {
  const items = optionItems(params.option_values);
  if (!items.length)
    throw invalid('A custom field with options needs option_values or option_group_id', 'option_values');
  const group = await sc.entities.save('OptionGroup', {
    name: `custom_field_${fieldId}`,
    title: String(label),
    is_active: 1,
  });
  let weight = 0;
  for (const item of items)
    await sc.entities.save('OptionValue', {
      option_group_id: group.id,
      value: item.value,
      name: item.name ?? item.label,
      label: item.label,
      weight: ++weight,
      is_active: 1,
    });
  return Number(group.id);
}

function optionItems(given: unknown): Array<{ value: string; label: string; name?: string }> {
  if (!given) return [];
  if (Array.isArray(given))
    return given.map((item) => {
      const row = (item ?? {}) as Row;
      return {
        value: String(row.value ?? row.label),
        label: String(row.label ?? row.value),
        name: row.name as string | undefined,
      };
    });
  if (typeof given === 'object')
    return Object.entries(given as Row).map(([value, label]) => ({ value, label: String(label) }));
  return [];
}
