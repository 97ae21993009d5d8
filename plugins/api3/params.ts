/**
 * APIv3 options (§3.3, with legacy spellings), return and sort, and the field paths they name. Every
 * field name and sort direction is checked against metadata here, so nothing a caller sends reaches SQL
 * except as a bound value. Filters: filters.ts.
 */
import type { CompiledEntity, EntityRegistry, FieldDef } from '../entity-core';
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
    const match = /^([A-Za-z0-9_.]+)(?:\s+(asc|desc))?$/i.exec(part);
    if (!match || !pathExists(registry, entity, match[1]))
      throw invalid(`Unknown field specified for sort. Cannot order by '${part}'`);
    const via = !match[1].includes('.') ? resolvePath(registry, entity, match[1], 'name')?.field.via : undefined;
    sort.push({
      path: via ?? canonicalPath(registry, entity, match[1]),
      dir: (match[2]?.toUpperCase() as 'ASC' | 'DESC') ?? 'ASC',
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
