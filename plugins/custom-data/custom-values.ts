/**
 * Values of custom fields as APIv3 sends them on the extended entity's own create/update — `custom_<id>`,
 * and for groups with several records `custom_<id>_-<n>` (a new record) or `custom_<id>:<record id>` — checked,
 * then written to the group's table after the record's own write, in its transaction.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { Entities, EntityLifecycle, EntityRegistry, FieldDef, SaveContext } from '../entity-core';
import { CONTACT_TYPES } from './entities/CustomGroup';
import type { CustomData } from './runtime';
import type { GroupRow } from './value-tables';

type Row = Record<string, unknown>;

/** `custom_<id>`, with `_<n>` or `:<n>` naming a record of a multi-record group (negative: a new one). */
export const CUSTOM_KEY = /^custom_(\d+)(?:[_:](-?\d+))?$/;
/** `custom_<group name>:<field name>[:<n>]` (CustomValue's name form). */
const NAMED_KEY = /^custom_([A-Za-z][A-Za-z0-9_]*):([A-Za-z][A-Za-z0-9_]*)(?::(-?\d+))?$/;

const invalid = (message: string, key: string) =>
  new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 2001, error_field: key } });

/** Writes waiting for the record's id: value entity → record key (`single`, a record id, or `new<n>`) → values. */
export type CustomWrites = Map<string, Map<string, Row>>;

type Found = NonNullable<ReturnType<CustomData['meta']['byId']['get']>>;

function fieldOfKey(custom: CustomData, key: string): { found: Found | undefined; record?: string } | undefined {
  if (!key.startsWith('custom_')) return undefined;
  const byId = CUSTOM_KEY.exec(key);
  if (byId) return { found: custom.meta.byId.get(Number(byId[1])), record: byId[2] };
  const named = NAMED_KEY.exec(key);
  if (!named) return undefined;
  const found = [...custom.meta.byId.values()].find(
    (item) => item.group.name === named[1] && item.field.name === named[2],
  );
  return { found, record: named[3] };
}

/**
 * The custom values among `params`, checked and converted, grouped by value table and record. `entity` is
 * the extended entity when known (a record's own write); otherwise the fields name it (CustomValue.create).
 */
export async function parseCustomValues(
  custom: CustomData,
  registry: EntityRegistry,
  db: Knex,
  params: Row,
  entity?: string,
): Promise<{ entity: string | undefined; writes: CustomWrites; groups: Map<number, GroupRow> }> {
  const writes: CustomWrites = new Map();
  const groups = new Map<number, GroupRow>();
  let extended = entity;
  for (const [key, raw] of Object.entries(params)) {
    const parsed = raw === undefined ? undefined : fieldOfKey(custom, key);
    if (!parsed) continue;
    const { found } = parsed;
    const owner = found && registry.find(found.entity) ? custom.extended(found.group)?.name : undefined;
    if (!found || !owner || (extended !== undefined && owner !== extended))
      throw invalid(`Unknown custom field ${key}${extended ? ` for ${extended}` : ''}`, key);
    extended = owner;
    const field = registry.get(found.entity).byName.get(found.field.name)!;
    const record =
      parsed.record === undefined
        ? found.group.is_multiple
          ? 'new'
          : 'single'
        : Number(parsed.record) < 0
          ? `new${parsed.record}`
          : parsed.record;
    if (!found.group.is_multiple && record !== 'single')
      throw invalid(`${key}: ${found.group.title} holds one record per ${owner}`, key);
    const records = writes.get(found.entity) ?? new Map<string, Row>();
    records.set(record, { ...records.get(record), [field.name]: await customValue(registry, db, field, raw, key) });
    writes.set(found.entity, records);
    groups.set(found.group.id, found.group);
  }
  return { entity: extended, writes, groups };
}

/** Writes parsed custom values of record `id` (single-record groups: updated or created; others by record). */
export async function writeCustomValues(entities: Entities, id: number, writes: CustomWrites): Promise<void> {
  for (const [name, records] of writes)
    for (const [record, values] of records) {
      let existing: Row | undefined;
      if (record === 'single') [existing] = await entities.get(name, { where: { entity_id: id }, limit: 1 });
      else if (/^\d+$/.test(record)) {
        [existing] = await entities.get(name, { where: { id: Number(record), entity_id: id }, limit: 1 });
        if (!existing) throw invalid(`No record ${record} of this record in ${name}`, `custom:${record}`);
      }
      await entities.save(name, existing ? { ...values, id: existing.id } : { ...values, entity_id: id });
    }
}

/** The field naming a record's sub-type, for groups limited to some (`extends_entity_column_value`). */
const SUBTYPE_FIELD: Record<string, string> = {
  Contact: 'contact_sub_type',
  Individual: 'contact_sub_type',
  Organization: 'contact_sub_type',
  Household: 'contact_sub_type',
  Activity: 'activity_type_id',
  Relationship: 'relationship_type_id',
  Event: 'event_type_id',
  Membership: 'membership_type_id',
  Contribution: 'financial_type_id',
};

const refuse = (message: string) => new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 2001 } });

/**
 * A group for one contact type (`Individual`) or for some sub-types (activity types, relationship types,
 * contact sub-types) refuses values for a record it does not apply to.
 */
function checkApplies(groups: Map<number, GroupRow>, row: Row): void {
  for (const group of groups.values()) {
    const kind = group.extends;
    if (CONTACT_TYPES.has(kind) && row.contact_type !== undefined && kind !== row.contact_type)
      throw refuse(`Custom fields for ${kind} contacts cannot be set on a ${String(row.contact_type)}`);
    const only = String(group.extends_entity_column_value ?? '')
      .split('\x01')
      .filter(Boolean);
    const field = SUBTYPE_FIELD[kind];
    if (!only.length || !field) continue;
    const own = row[field];
    const has = (Array.isArray(own) ? own : String(own ?? '').split('\x01')).map(String);
    if (!has.some((value) => only.includes(value)))
      throw refuse(`${group.title} applies only to records whose ${field} is one of ${only.join(', ')}`);
  }
}

export function customValueLifecycle(custom: CustomData, registry: EntityRegistry, entity: string): EntityLifecycle {
  const pending = new WeakMap<SaveContext, CustomWrites>();
  return {
    // It reads option lists and writes the record's own custom values by its id: nothing a linked record writes.
    linkSafe: true,
    async beforeSave(values, sc) {
      // Every save of an extended entity comes here (an import, thousands a second): most carry no custom value.
      if (!Object.keys(sc.params).some((key) => key.startsWith('custom_'))) return;
      const { writes, groups } = await parseCustomValues(custom, registry, sc.db, sc.params, entity);
      if (!writes.size) return;
      checkApplies(groups, { ...sc.existing, ...values });
      pending.set(sc, writes);
    },
    async afterSave(row, sc) {
      const writes = pending.get(sc);
      if (writes) await writeCustomValues(sc.entities, Number(row.id), writes);
    },
  };
}

/**
 * One custom value as stored: `null`, `''` and lowercase `'null'` clear it; the string `'NULL'` is kept as
 * text (5.12); options by value, name or label; lists for multi-valued fields (4.6.7).
 */
export async function customValue(
  registry: EntityRegistry,
  db: Knex,
  field: FieldDef,
  raw: unknown,
  key: string,
): Promise<unknown> {
  if (raw === null || raw === '' || raw === 'null') return null;
  if (field.serialize) {
    const items = Array.isArray(raw)
      ? raw
      : String(raw)
          .split(/[\x01,]/)
          .filter(Boolean);
    return Promise.all(items.map((item) => scalar(registry, db, field, item, key)));
  }
  return scalar(registry, db, field, raw, key);
}

async function scalar(
  registry: EntityRegistry,
  db: Knex,
  field: FieldDef,
  raw: unknown,
  key: string,
): Promise<unknown> {
  if (typeof raw === 'object' && raw !== null) throw invalid(`${key} takes one value`, key);
  const text = String(raw).trim();
  const options = field.optionGroup ? await registry.optionsFor(db, field) : undefined;
  if (options) {
    const hit =
      options.find((o) => o.value === text) ??
      options.find((o) => o.name === text) ??
      options.find((o) => o.label === text);
    if (!hit) throw invalid(`'${text}' is not a valid option for field ${key}`, key);
    return hit.value;
  }
  switch (field.type) {
    case 'Int':
      if (!/^-?\d{1,10}$/.test(text) || Math.abs(Number(text)) > 2147483647)
        throw invalid(`${key} is not a valid integer`, key);
      return Number(text);
    case 'Float':
    case 'Money':
      if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) throw invalid(`${key} is not a valid number`, key);
      return field.type === 'Money' ? text : Number(text);
    case 'Boolean':
      if (['1', 'true', 'yes'].includes(text.toLowerCase())) return true;
      if (['0', 'false', 'no'].includes(text.toLowerCase())) return false;
      throw invalid(`${key} is not a valid boolean`, key);
    case 'Timestamp':
      return dateTime(text, key);
    default:
      if (field.maxlength && text.length > field.maxlength)
        throw invalid(
          `Value for ${key} is ${text.length} characters - This field has a maxlength of ${field.maxlength} characters.`,
          key,
        );
      return String(raw);
  }
}

/** `YYYY-MM-DD`, `YYYYMMDD`, with an optional time (`HH:MM[:SS]` or `HHMMSS`), a real calendar day. */
function dateTime(text: string, key: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T]?(\d{2}):?(\d{2})(?::?(\d{2}))?)?$/.exec(text);
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !day || day.getUTCMonth() !== Number(m[2]) - 1 || Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59)
    throw invalid(`${key} is not a valid date: ${text}`, key);
  return `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}`;
}
