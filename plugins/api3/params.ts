/**
 * APIv3 params → a store query: options (§3.3, with legacy spellings), filters (§3.4), return, sort.
 * Every field name, operator and sort direction is checked against metadata / whitelists here, so
 * nothing a caller sends reaches SQL except as a bound value.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../kernel';
import type { CompiledEntity, EntityRegistry, FieldDef } from '../entity-core';
import { OPERATORS, type Condition, type Filter, type Operator, type Query } from '../entity-core';
import { invalid } from './errors';

export interface GetOptions {
  limit: number;
  offset: number;
  sort: Array<{ path: string; dir: 'ASC' | 'DESC' }>;
  /** Field names / dotted paths to return; undefined = the entity's default. */
  return?: string[];
  sequential: boolean;
  isCount: boolean;
  or: string[][];
}

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

export function truthy(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '0' && v !== '' && v !== 'false';
}

function opt(params: Record<string, unknown>, name: string, legacy: string[] = []): unknown {
  // Later spellings win: legacy spellings first, options.<name> last.
  let out: unknown;
  for (const k of legacy) if (params[k] !== undefined) out = params[k];
  if (params[`option.${name}`] !== undefined) out = params[`option.${name}`];
  if (params[`option_${name}`] !== undefined) out = params[`option_${name}`];
  const o = params.options;
  if (o && typeof o === 'object' && !Array.isArray(o) && (o as Record<string, unknown>)[name] !== undefined)
    out = (o as Record<string, unknown>)[name];
  return out;
}

export function optionValue(params: Record<string, unknown>, name: string): unknown {
  return opt(params, name);
}

function toInt(v: unknown, what: string): number {
  // limit and offset are counts: a negative number is as invalid as a word.
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  throw invalid(`${what} is not a valid integer`, 2001, { error_field: what, type: 'integer' });
}

function list(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter(Boolean);
  if (typeof v === 'string')
    return v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  if (v && typeof v === 'object')
    return Object.entries(v)
      .filter(([, x]) => truthy(x))
      .map(([k]) => k);
  return [];
}

export function parseOptions(
  entity: CompiledEntity,
  params: Record<string, unknown>,
  registry: EntityRegistry,
): GetOptions {
  const limitRaw = opt(params, 'limit', ['rowCount']);
  const limit =
    limitRaw === undefined
      ? 25
      : limitRaw === null || limitRaw === false || limitRaw === ''
        ? 0
        : toInt(limitRaw, 'limit');
  const offsetRaw = opt(params, 'offset', ['offset']);
  const offset = offsetRaw === undefined || offsetRaw === null || offsetRaw === '' ? 0 : toInt(offsetRaw, 'offset');

  const sortRaw = opt(params, 'sort', ['sort']);
  const sort: GetOptions['sort'] = [];
  for (const part of list(sortRaw)) {
    if (/select/i.test(part)) throw invalid('invalid string in sort options');
    const m = /^([A-Za-z0-9_.]+)(?:\s+(asc|desc))?$/i.exec(part);
    if (!m || !pathExists(registry, entity, m[1]))
      throw invalid(`Unknown field specified for sort. Cannot order by '${part}'`);
    const via = !m[1].includes('.') ? resolvePath(registry, entity, m[1], 'name')?.field.via : undefined;
    sort.push({
      path: via ?? canonicalPath(registry, entity, m[1]),
      dir: (m[2]?.toUpperCase() as 'ASC' | 'DESC') ?? 'ASC',
    });
  }

  let ret: string[] | undefined;
  if (params.return !== undefined && params.return !== '')
    ret =
      typeof params.return === 'string'
        ? params.return.replace(/\s/g, '').split(',').filter(Boolean)
        : list(params.return);
  const legacyReturn = Object.keys(params)
    .filter((k) => k.startsWith('return.') && truthy(params[k]))
    .map((k) => k.slice(7));
  if (legacyReturn.length) ret = [...(ret ?? []), ...legacyReturn];

  const orRaw = opt(params, 'or');
  let or: string[][] = [];
  if (typeof orRaw === 'string') or = [list(orRaw)];
  else if (Array.isArray(orRaw))
    or = orRaw.every((g) => Array.isArray(g)) ? (orRaw as unknown[][]).map((g) => g.map(String)) : [orRaw.map(String)];

  return {
    limit,
    offset,
    sort,
    return: ret,
    sequential: truthy(params.sequential),
    isCount: truthy(opt(params, 'is_count')),
    or,
  };
}

/** True when a (possibly dotted) path names a field reachable through FK joins. */
export function pathExists(registry: EntityRegistry, entity: CompiledEntity, path: string): boolean {
  return resolvePath(registry, entity, path) !== undefined;
}

export function resolvePath(
  registry: EntityRegistry,
  entity: CompiledEntity,
  path: string,
  prefer: 'name' | 'alias' = 'alias',
): { field: FieldDef; entity: CompiledEntity } | undefined {
  const parts = path.split('.');
  let e = entity;
  for (let i = 0; i < parts.length - 1; i++) {
    const f = e.lookup.get(parts[i]);
    if (!f?.fk) return undefined;
    const next = registry.find(f.fk);
    if (!next) return undefined;
    e = next;
  }
  const last = parts[parts.length - 1];
  // For output, a field's own name wins over another field's alias (Contact `gender` label vs gender_id alias).
  const field = (prefer === 'name' ? e.byName.get(last) : undefined) ?? e.lookup.get(last);
  return field ? { field, entity: e } : undefined;
}

/** The path with each segment replaced by its canonical field name. */
export function canonicalPath(registry: EntityRegistry, entity: CompiledEntity, path: string): string {
  const parts = path.split('.');
  const out: string[] = [];
  let e = entity;
  for (let i = 0; i < parts.length; i++) {
    const f = e.lookup.get(parts[i])!;
    out.push(f.name);
    if (i < parts.length - 1) e = registry.get(f.fk!);
  }
  return out.join('.');
}

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
    const s = String(value);
    const hit =
      options.find((o) => o.value === s) ?? options.find((o) => o.name === s) ?? options.find((o) => o.label === s);
    if (!hit) throw invalid(`'${s}' is not a valid option for field ${key}`, 2001, { error_field: key });
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
      const s = String(value).toLowerCase();
      if (['1', 'true', 'yes'].includes(s)) return 1;
      if (['0', 'false', 'no', ''].includes(s)) return 0;
      throw invalid(`${key} is not a valid boolean`, 2001, { error_field: key });
    }
    case 'Date':
    case 'Timestamp': {
      if (value === '') return null;
      const s = String(value);
      if (
        /^\d{4}-?\d{2}-?\d{2}([ T]?\d{2}:?\d{2}(:?\d{2})?)?$/.test(s) &&
        !Number.isNaN(
          Date.parse(s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}` : s.replace(' ', 'T')),
        )
      )
        return normaliseDate(s);
      if (s === 'now') return new Date().toISOString();
      throw invalid(`${key} is not a valid date: ${s}`);
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
    const [k, v] = entries[0];
    if (!(OPERATORS as readonly string[]).includes(k))
      throw invalid(`'${k}' is not a valid operator for field ${path}; use one of ${OPERATORS.join(', ')}`);
    op = k as Operator;
    value = v;
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
  for (const [key, raw] of Object.entries(params)) {
    if (RESERVED.has(key) || key.startsWith('api.') || key.startsWith('return.')) continue;
    // A field wins over the option_* / api_* spellings (option_group_id is a field).
    let r = resolvePath(fc.registry, entity, key);
    // Legacy date ranges: `<date field>_low` / `_high`, also as `filter.<…>` (§3.4).
    const range = /^(?:filter\.)?(.+)_(low|high)$/.exec(key);
    if (!r && range) {
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
    if (!r || r.field.labelOf) continue;
    const path = r.field.via && !key.includes('.') ? r.field.via : canonicalPath(fc.registry, entity, key);
    if (r.field.via && !key.includes('.')) r = resolvePath(fc.registry, entity, path)!;
    const f = await parseFilter(fc, path, r.field, raw);
    if (f) byKey.set(key, f);
  }
  const used = new Set<string>();
  const out: Condition[] = [];
  for (const group of or) {
    const filters: Filter[] = [];
    for (const name of group) {
      const f =
        byKey.get(name) ??
        [...byKey.entries()].find(([k]) => resolvePath(fc.registry, entity, k)?.field.name === name)?.[1];
      if (!f) throw invalid(`'${name}' specified in OR group but not added to params`);
      filters.push(f);
      for (const [k, v] of byKey) if (v === f) used.add(k);
    }
    out.push({ or: filters });
  }
  for (const [k, f] of byKey) if (!used.has(k)) out.push(f);
  return out;
}

export function buildQuery(where: Condition[], o: GetOptions, select: string[] | undefined): Query {
  return { where, select, sort: o.sort, limit: o.limit, offset: o.offset };
}
