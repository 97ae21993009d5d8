/**
 * APIv3 filters (§3.4) → store conditions: each param naming a field (name, unique name, alias or a
 * dotted FK path) becomes a condition; its value is checked for the field's type (ints, booleans,
 * dates, options by value, name or label) and its operator against the operator list. Unknown keys are
 * ignored, as the reference ignores them.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../kernel';
import type { CompiledEntity, EntityRegistry, FieldDef } from '../entity-core';
import { OPERATORS, type Condition, type Filter, type Operator, type Query } from '../entity-core';
import { invalid } from './errors';
import { currentConditions, legacyFilters } from './current-filter';
import { canonicalPath, resolvePath, type GetOptions } from './params';

const RESERVED = new Set([
  'options',
  'sequential',
  'return',
  'rowCount',
  'offset',
  'sort',
  'debug',
  'version',
  'check_permissions',
  'prettyprint',
  'json',
  'entity',
  'action',
  'is_transactional',
  'api_action',
  'format',
  'id_field',
]);

export interface FilterContext {
  db: Knex;
  registry: EntityRegistry;
  principal: Principal;
}

/** Validates one value for a field (ints, booleans, dates, options by value/name/label). */
export async function coerceValue(fc: FilterContext, field: FieldDef, value: unknown, key: string): Promise<unknown> {
  if (value === null || value === undefined) return value;
  if (
    field.type === 'Int' &&
    (field.name.endsWith('contact_id') || field.fk === 'Contact' || field.name === 'id') &&
    value === 'user_contact_id'
  ) {
    return fc.principal.contactId;
  }
  const options =
    field.optionGroup || field.pseudoEntity || field.options ? await fc.registry.optionsFor(fc.db, field) : undefined;
  if (options && typeof value !== 'object') {
    const text = String(value);
    const hit =
      options.find((o) => o.value === text) ??
      options.find((o) => o.name === text) ??
      options.find((o) => o.label === text) ??
      options.find((o) => o.abbr !== undefined && o.abbr === text);
    if (!hit) throw invalid(`'${text}' is not a valid option for field ${key}`, 2001, { error_field: key });
    return field.type === 'Int' ? Number(hit.value) : hit.value;
  }
  switch (field.type) {
    case 'Int':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d+$/.test(value.trim()) && Math.abs(Number(value)) <= 2147483647)
        return Number(value);
      throw invalid(`${key} is not a valid integer`, 2001, { error_field: key, type: 'integer' });
    case 'Float':
      if (value === '' || Number.isNaN(Number(value)))
        throw invalid(`${key} is not a valid number`, 2001, { error_field: key });
      return Number(value);
    case 'Money': {
      // Exact decimals: the amount's text goes to the numeric column as written, never through a float.
      const amount = String(value).trim();
      if (!/^-?\d{1,18}(\.\d{1,9})?$/.test(amount))
        throw invalid(`${key} is not a valid amount`, 2001, { error_field: key });
      return amount;
    }
    case 'Json':
      // APIv3 speaks JSON text for these (a structure inside `json=` is taken too).
      if (typeof value !== 'string') return JSON.stringify(value);
      try {
        JSON.parse(value);
      } catch {
        throw invalid(`${key} is not valid JSON`, 2001, { error_field: key });
      }
      return value;
    case 'Boolean': {
      const text = String(value).toLowerCase();
      if (['1', 'true', 'yes'].includes(text)) return 1;
      if (['0', 'false', 'no', ''].includes(text)) return 0;
      throw invalid(`${key} is not a valid boolean`, 2001, { error_field: key });
    }
    case 'Date':
    case 'Timestamp': {
      if (value === '') return null;
      const text = String(value);
      if (
        /^\d{4}-?\d{2}-?\d{2}([ T]?\d{2}:?\d{2}(:?\d{2})?)?$/.test(text) &&
        !Number.isNaN(
          Date.parse(
            text.length === 8 ? `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6)}` : text.replace(' ', 'T'),
          ),
        )
      )
        return normaliseDate(text);
      if (text === 'now') return new Date().toISOString();
      throw invalid(`${key} is not a valid date: ${text}`);
    }
    default:
      if (typeof value === 'object' && !Array.isArray(value))
        throw invalid(`${key} is not a valid string`, 2001, { error_field: key });
      return field.serialize ? value : String(value);
  }
}

function normaliseDate(s: string): string {
  if (/^\d{8}/.test(s))
    return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}${s.length > 8 ? ' ' + s.slice(8).replace(/^[ T]/, '') : ''}`;
  return s;
}

/** Parses one filter value: plain equality, an operator object, or (our reading) a plain list as IN. */
async function parseFilter(
  fc: FilterContext,
  path: string,
  field: FieldDef,
  raw: unknown,
): Promise<Filter | undefined> {
  if (raw === null || raw === undefined) return undefined;
  let op: Operator = '=';
  let value: unknown = raw;
  if (Array.isArray(raw)) {
    op = 'IN';
  } else if (typeof raw === 'object') {
    const entries = Object.entries(raw as Record<string, unknown>);
    if (!entries.length) return undefined;
    const [k, operand] = entries[0];
    if (!(OPERATORS as readonly string[]).includes(k))
      throw invalid(`'${k}' is not a valid operator for field ${path}; use one of ${OPERATORS.join(', ')}`);
    op = k as Operator;
    value = operand;
  }
  if (op === 'IS NULL' || op === 'IS NOT NULL') return { path, op };
  if (op === 'IN' || op === 'NOT IN') {
    const items = Array.isArray(value)
      ? value
      : typeof value === 'string' && value !== ''
        ? value.split(',')
        : value === null || value === undefined || value === ''
          ? []
          : [value];
    if (!items.length) throw invalid(`invalid criteria for ${op.replace('NOT ', '')}`);
    return { path, op, value: await Promise.all(items.map((x) => coerceValue(fc, field, x, path))) };
  }
  if (op === 'BETWEEN' || op === 'NOT BETWEEN') {
    if (!Array.isArray(value) || value.length !== 2 || value.some((x) => x === '' || x === null || x === undefined))
      throw invalid('invalid criteria for BETWEEN');
    return { path, op, value: await Promise.all(value.map((x) => coerceValue(fc, field, x, path))) };
  }
  if (op === 'LIKE' || op === 'NOT LIKE') return { path, op, value: String(value) };
  if (typeof value === 'object' && value !== null) throw invalid(`${path}: operator ${op} needs a single value`);
  return { path, op, value: await coerceValue(fc, field, value, path) };
}

/** Filters from params: known fields (name, unique name, alias) and dotted FK paths; unknown keys ignored. */
export async function parseFilters(
  fc: FilterContext,
  entity: CompiledEntity,
  params: Record<string, unknown>,
  or: string[][],
): Promise<Condition[]> {
  const byKey = new Map<string, Filter>();
  const current: Condition[] = [];
  for (const [key, raw] of legacyFilters(entity, params)) {
    // (Event's own `isCurrent`, events not yet over, is its entity's: entity-event.)
    if (key === 'filter.is_current') {
      if (String(raw) === '1' || raw === true)
        current.push(...(await currentConditions(entity, (field, value, name) => coerceValue(fc, field, value, name))));
      continue;
    }
    // `api_action` is a control word unless the entity has such a field (Job's `api_action`).
    const reserved = RESERVED.has(key) && !(key === 'api_action' && entity.byName.has(key));
    if (reserved || key.startsWith('api.') || key.startsWith('return.')) continue;
    // A field wins over the option_* / api_* spellings (option_group_id is a field).
    let resolved = resolvePath(fc.registry, entity, key);
    // Legacy date ranges: `<date field>_low` / `_high`, also as `filter.<…>` (§3.4).
    const range = /^(?:filter\.)?(.+)_(low|high)$/.exec(key);
    if (!resolved && range) {
      const base = resolvePath(fc.registry, entity, range[1]);
      if (
        base &&
        (base.field.type === 'Date' || base.field.type === 'Timestamp') &&
        raw !== null &&
        raw !== undefined &&
        raw !== ''
      ) {
        const path = canonicalPath(fc.registry, entity, range[1]);
        byKey.set(key, {
          path,
          op: range[2] === 'low' ? '>=' : '<=',
          value: await coerceValue(fc, base.field, raw, range[1]),
        });
      }
      continue;
    }
    if (!resolved || resolved.field.labelOf) continue;
    const path =
      resolved.field.via && !key.includes('.') ? resolved.field.via : canonicalPath(fc.registry, entity, key);
    if (resolved.field.via && !key.includes('.')) resolved = resolvePath(fc.registry, entity, path)!;
    const filter = await parseFilter(fc, path, resolved.field, raw);
    if (filter) byKey.set(key, filter);
  }
  const used = new Set<string>();
  const out: Condition[] = [];
  for (const group of or) {
    const filters: Filter[] = [];
    for (const name of group) {
      const filter =
        byKey.get(name) ??
        [...byKey.entries()].find(([k]) => resolvePath(fc.registry, entity, k)?.field.name === name)?.[1];
      if (!filter) throw invalid(`'${name}' specified in OR group but not added to params`);
      filters.push(filter);
      for (const [k, other] of byKey) if (other === filter) used.add(k);
    }
    out.push({ or: filters });
  }
  for (const [k, filter] of byKey) if (!used.has(k)) out.push(filter);
  return [...out, ...current];
}

export function buildQuery(where: Condition[], o: GetOptions, select: string[] | undefined): Query {
  return { where, select, sort: o.sort, limit: o.limit, offset: o.offset };
}
