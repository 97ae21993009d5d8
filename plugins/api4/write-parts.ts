/**
 * Parts of the APIv4 writes: values for related records (`email_primary.email` on Contact) and replace's
 * `match`. Field names come from metadata only.
 */
import type { CompiledEntity, EntityService, EntitySession, FieldDef } from '../entity-core';
import { invalid, v4Field } from './params';
import type { Row } from './types';

/** Values for one related record: `email_primary.email` → the primary Email's `email`. */
export interface RelatedValues {
  field: FieldDef;
  values: Row;
}

/**
 * Splits `values` into the record's own (returned as given) and those keyed `<reference>.<field>` through a
 * related-record reference (Contact's `email_primary`, `phone_primary`, `address_primary`); any other dotted
 * key is refused.
 */
export function splitRelated(entity: CompiledEntity, raw: unknown): { own: unknown; related: RelatedValues[] } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { own: raw, related: [] };
  const own: Row = {};
  const related = new Map<string, RelatedValues>();
  for (const key in raw as Row) {
    const value = (raw as Row)[key];
    const dot = key.indexOf('.');
    if (dot < 0) {
      own[key] = value;
      continue;
    }
    const field = v4Field(entity, key.slice(0, dot));
    if (!field?.related || !field.fk) throw invalid(`Invalid field '${key}' in values`, { error_field: key });
    const group = related.get(field.name) ?? { field, values: {} };
    group.values[key.slice(dot + 1)] = value;
    related.set(field.name, group);
  }
  return { own, related: [...related.values()] };
}

/** Related values of defaults and a record, the record's winning per key. */
export function mergeRelated(defaults: RelatedValues[], record: RelatedValues[]): RelatedValues[] {
  const merged = new Map(defaults.map((group) => [group.field.name, { ...group, values: { ...group.values } }]));
  for (const group of record) {
    const into = merged.get(group.field.name);
    if (into) Object.assign(into.values, group.values);
    else merged.set(group.field.name, group);
  }
  return [...merged.values()];
}

/**
 * `match` (replace): a record without an id that equals one of the records being replaced on every match
 * field takes that record's id, so it is updated in place instead of deleted and created again.
 */
export async function matchReplaced(
  service: EntityService,
  session: EntitySession,
  entity: CompiledEntity,
  given: { records: Row[]; defaults: Row; match: unknown },
  before: number[],
): Promise<Row[]> {
  const fields = (given.match as string[] | undefined) ?? [];
  if (!fields.length || !before.length) return given.records;
  for (const field of fields)
    if (!v4Field(entity, field)) throw invalid(`Invalid field '${field}' in match`, { error_field: field });
  const existing = await service.get(session, entity, {
    where: [{ path: 'id', op: 'IN', value: before }],
    select: ['id', ...fields],
  });
  const taken = new Set<number>();
  return given.records.map((record) => {
    if (record.id !== undefined) return record;
    const merged = { ...given.defaults, ...record };
    const same = existing.find(
      (row) =>
        !taken.has(Number(row.id)) && fields.every((field) => String(row[field] ?? '') === String(merged[field] ?? '')),
    );
    if (!same) return record;
    taken.add(Number(same.id));
    return { ...record, id: same.id };
  });
}
