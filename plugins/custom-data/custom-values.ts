/**
 * Values of custom fields as APIv3 sends them on the extended entity's own create/update — `custom_<id>`,
 * and for groups with several records `custom_<id>_-<n>` (a new record) or `custom_<id>:<record id>` — checked,
 * then written to the group's table after the record's own write, in its transaction.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { EntityLifecycle, EntityRegistry, FieldDef, SaveContext } from '../entity-core';
import type { CustomData } from './runtime';

type Row = Record<string, unknown>;

export const CUSTOM_KEY = /^custom_(\d+)(?:_(-\d+)|:(\d+))?$/;

const invalid = (message: string, key: string) =>
  new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 2001, error_field: key } });

/** Writes waiting for the record's id: value entity → record key (existing id, or `new<n>`) → values. */
type Pending = Map<string, Map<string, Row>>;

export function customValueLifecycle(custom: CustomData, registry: EntityRegistry, entity: string): EntityLifecycle {
  const pending = new WeakMap<SaveContext, Pending>();
  return {
    async beforeSave(_values, sc) {
      const writes: Pending = new Map();
      for (const [key, raw] of Object.entries(sc.params)) {
        const match = CUSTOM_KEY.exec(key);
        if (!match || raw === undefined) continue;
        const found = custom.meta.byId.get(Number(match[1]));
        if (!found || registry.find(found.entity) === undefined || custom.extended(found.group)?.name !== entity)
          throw invalid(`Unknown custom field ${key} for ${entity}`, key);
        const target = registry.get(found.entity);
        const field = target.byName.get(found.field.name)!;
        const record = match[3] ?? (match[2] ? `new${match[2]}` : found.group.is_multiple ? 'new' : 'single');
        if (!found.group.is_multiple && record !== 'single')
          throw invalid(`${key}: ${found.group.title} holds one record per ${entity}`, key);
        const value = await customValue(registry, sc.db, field, raw, key);
        const records = writes.get(found.entity) ?? new Map<string, Row>();
        records.set(record, { ...records.get(record), [field.name]: value });
        writes.set(found.entity, records);
      }
      if (writes.size) pending.set(sc, writes);
    },
    async afterSave(row, sc) {
      const writes = pending.get(sc);
      if (!writes) return;
      const id = Number(row.id);
      for (const [name, records] of writes)
        for (const [record, values] of records) {
          let existing: Row | undefined;
          if (record === 'single') [existing] = await sc.entities.get(name, { where: { entity_id: id }, limit: 1 });
          else if (/^\d+$/.test(record)) {
            [existing] = await sc.entities.get(name, { where: { id: Number(record), entity_id: id }, limit: 1 });
            if (!existing) throw invalid(`No record ${record} of this ${entity} in ${name}`, `custom:${record}`);
          }
          await sc.entities.save(name, existing ? { ...values, id: existing.id } : { ...values, entity_id: id });
        }
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
