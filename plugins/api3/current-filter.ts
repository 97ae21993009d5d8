/**
 * The reference's legacy filter spellings (§3.4) that are not one field's condition: a `filters` object, and
 * `filter.is_current`.
 */
import type { CompiledEntity, Condition, FieldDef } from '../entity-core';
import { invalid } from './errors';

/** The params, with the entries of a `filters` object (the reference's newer spelling) as `filter.<key>` ones. */
export function legacyFilters(entity: CompiledEntity, params: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(params).flatMap(([key, raw]): Array<[string, unknown]> =>
    key === 'filters' && !entity.byName.has(key) && raw && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.entries(raw as Record<string, unknown>).map(([name, value]) => [`filter.${name}`, value])
      : [[key, raw]],
  );
}

/**
 * `filter.is_current=1` (§3.4): records whose `start_date` is today or earlier (or none), whose `end_date` is today
 * or later (or none), and active when they have `is_active`. The reference's filter counts a record ending today
 * as not current (it compares the end date with 23:59:59), unlike its own listings of current relationships; here
 * a record is current through its last day. An entity with neither date refuses the filter.
 */
export async function currentConditions(
  entity: CompiledEntity,
  coerce: (field: FieldDef, value: unknown, name: string) => Promise<unknown>,
): Promise<Condition[]> {
  const today = new Date().toISOString().slice(0, 10);
  const bound = async (name: 'start_date' | 'end_date', op: '<=' | '>=', value: string): Promise<Condition[]> => {
    const field = entity.byName.get(name);
    if (!field) return [];
    const typed = await coerce(field, field.type === 'Timestamp' && op === '<=' ? `${today} 23:59:59` : value, name);
    return [
      {
        or: [
          { path: name, op, value: typed },
          { path: name, op: 'IS NULL' },
        ],
      },
    ];
  };
  const dates = [...(await bound('start_date', '<=', today)), ...(await bound('end_date', '>=', today))];
  if (!dates.length)
    throw invalid(`filter.is_current needs start_date or end_date, which ${entity.name} does not have`);
  const active = entity.byName.get('is_active')?.type === 'Boolean';
  return active ? [...dates, { path: 'is_active', op: '=', value: true }] : dates;
}
