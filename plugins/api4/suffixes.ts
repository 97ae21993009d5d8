/**
 * APIv4 pseudo-constant suffixes: `field:name`, `field:label`, `field:abbr` in select, where, orderBy and
 * values. A suffixed path names the field's option by its name or label instead of its stored value; the
 * translation uses the field's options (option group, another entity or fixed options) and never SQL text.
 */
import type { Knex } from 'knex';
import type { CompiledEntity, EntityRegistry, FieldDef, Filter, OptionItem } from '../entity-core';
import { invalid } from './params';
import type { Row } from './types';

export const SUFFIXES = ['name', 'label', 'abbr'] as const;
export type Suffix = (typeof SUFFIXES)[number];

/** `gender_id:label` → base `gender_id`, suffix `label`; a path without a suffix has none. */
export function splitSuffix(path: string): { base: string; suffix?: Suffix } {
  const colon = path.lastIndexOf(':');
  if (colon < 0) return { base: path };
  const suffix = path.slice(colon + 1);
  if (!(SUFFIXES as readonly string[]).includes(suffix))
    throw invalid(`Invalid suffix ':${suffix}' in '${path}'; use one of ${SUFFIXES.join(', ')}`, { error_field: path });
  return { base: path.slice(0, colon), suffix: suffix as Suffix };
}

export const hasOptions = (field: FieldDef) => !!(field.optionGroup || field.pseudoEntity || field.options);

/** The options of a field a suffix is used on; a field without options cannot take one. */
export async function optionsOf(
  registry: EntityRegistry,
  db: Knex,
  field: FieldDef,
  path: string,
): Promise<OptionItem[]> {
  if (!hasOptions(field)) throw invalid(`Field '${path}' has no options: it takes no suffix`, { error_field: path });
  return (await registry.optionsFor(db, field)) ?? [];
}

const optionKey = (option: OptionItem, suffix: Suffix) => (suffix === 'abbr' ? option.abbr : option[suffix]);

/** The stored values whose option `suffix` is one of `given`. */
function valuesNamed(options: OptionItem[], suffix: Suffix, given: unknown[]): string[] {
  const wanted = new Set(given.map(String));
  return options.filter((option) => wanted.has(String(optionKey(option, suffix)))).map((option) => option.value);
}

/** A LIKE pattern as a test on option names/labels (case-insensitive, as the store's LIKE). */
function likeTest(pattern: string): (text: string | undefined) => boolean {
  const escaped = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  const regex = new RegExp(`^${escaped}$`, 'is');
  return (text) => text !== undefined && regex.test(text);
}

/** A where filter on a suffixed path, rewritten in place as a filter on the stored values. */
export async function translateFilter(
  filter: Filter,
  suffix: Suffix,
  options: OptionItem[],
  field: FieldDef,
): Promise<void> {
  const asStored = (values: string[]) => (field.type === 'Int' ? values.map(Number) : values);
  const negated = ['!=', '<>', 'NOT IN', 'NOT LIKE', 'NOT CONTAINS'].includes(filter.op);
  let values: string[];
  if (filter.op === 'LIKE' || filter.op === 'NOT LIKE') {
    const test = likeTest(String(filter.value));
    values = options.filter((option) => test(optionKey(option, suffix))).map((option) => option.value);
  } else if (['=', '!=', '<>', 'IN', 'NOT IN', 'CONTAINS', 'NOT CONTAINS'].includes(filter.op)) {
    values = valuesNamed(options, suffix, Array.isArray(filter.value) ? filter.value : [filter.value]);
  } else if (filter.op === 'IS NULL' || filter.op === 'IS NOT NULL' || filter.op.endsWith('EMPTY')) return;
  else throw invalid(`Operator ${filter.op} cannot be used with a :${suffix} suffix`, { error_field: filter.path });
  if (field.serialize) {
    filter.op = negated ? 'NOT CONTAINS' : 'CONTAINS';
    filter.value = values.length ? values : ['\x00'];
    if (!negated && values.length > 1) throw invalid(`CONTAINS with a :${suffix} suffix takes one option`);
    return;
  }
  filter.op = negated ? 'NOT IN' : 'IN';
  filter.value = asStored(values);
}

/** The stored value of an option named by its name, label or abbreviation; unknown ones are the caller's mistake. */
export function storedValue(options: OptionItem[], suffix: Suffix, given: unknown, path: string): unknown {
  if (given === null || given === undefined) return given;
  const items = Array.isArray(given) ? given : [given];
  const stored = items.map((item) => {
    const hit = options.find((option) => optionKey(option, suffix) === String(item));
    if (!hit) throw invalid(`'${String(item)}' is not a valid option for '${path}'`, { error_field: path });
    return hit.value;
  });
  return Array.isArray(given) ? stored : stored[0];
}

/** `values` with suffixed keys turned into stored values under the field's own name. */
export async function resolveValueSuffixes(
  registry: EntityRegistry,
  db: Knex,
  entity: CompiledEntity,
  raw: unknown,
): Promise<unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const out: Row = {};
  for (const key in raw as Row) {
    const value = (raw as Row)[key];
    const { base, suffix } = splitSuffix(key);
    if (!suffix) {
      out[key] = value;
      continue;
    }
    const field = entity.byName.get(base);
    if (!field) throw invalid(`Invalid field '${key}' in values`, { error_field: key });
    out[base] = storedValue(await optionsOf(registry, db, field, key), suffix, value, key);
  }
  return out;
}

/** The option text a suffixed select shows for a stored value (a list for a serialized field). */
export function optionText(options: OptionItem[], suffix: Suffix, stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  const one = (value: unknown) => {
    const hit = options.find((option) => option.value === String(value));
    return hit ? (optionKey(hit, suffix) ?? null) : null;
  };
  return Array.isArray(stored) ? stored.map(one) : one(stored);
}

/** The values of a field ordered by their option text (orderBy on a suffixed path). */
export function orderOfValues(options: OptionItem[], suffix: Suffix): string[] {
  return [...options]
    .sort((a, b) => String(optionKey(a, suffix) ?? '').localeCompare(String(optionKey(b, suffix) ?? '')))
    .map((option) => option.value);
}
