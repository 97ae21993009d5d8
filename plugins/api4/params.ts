/**
 * APIv4 params → store conditions and typed values. Field names, join paths, operators and sort
 * directions are checked against entity metadata and whitelists here; a caller's mistake is an
 * E_INVALID_PARAMS error naming what was wrong, never SQL.
 */
import { KernelError, type Principal } from '../../kernel';
import type { CompiledEntity, EntityRegistry, FieldDef } from '../entity-core';
import {
  MAX_CONDITION_DEPTH,
  MAX_JOINS,
  V4_OPERATORS,
  type Condition,
  type Filter,
  type Operator,
} from '../entity-core';
import { splitSuffix, type Suffix } from './suffixes';
import { coerceScalar } from './coerce';

export const MAX_PATH_JOINS = MAX_JOINS;

export function invalid(message: string, details: Record<string, unknown> = {}): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, { details });
}

/**
 * Fields APIv4 shows: stored columns of the entity and its collections (APIv3's computed/related extras are not
 * APIv4 fields), plus references to a related record (Contact's `email_primary`).
 */
export function v4Fields(e: CompiledEntity): FieldDef[] {
  // Kept per field list (adding a field gives an entity a new list): a read asks ~3 times.
  return v4FieldsOf.get(e.fields) ?? v4FieldsOf.set(e.fields, e.fields.filter(isV4Field)).get(e.fields)!;
}
const v4FieldsOf = new WeakMap<readonly FieldDef[], FieldDef[]>();

const isV4Field = (f: FieldDef) => (!f.related || Boolean(f.fk)) && !f.labelOf && !f.via;

export function v4Field(e: CompiledEntity, name: string): FieldDef | undefined {
  const f = e.byName.get(name);
  return f && isV4Field(f) ? f : undefined;
}

/** May this principal read this (possibly secret) field? Trusted calls may. */
export function mayRead(f: FieldDef, principal: Principal, trusted = false): boolean {
  return !f.secret || trusted || principal.permissions.has('*') || f.secret.some((p) => principal.permissions.has(p));
}

export interface ResolvedPath {
  path: string;
  field: FieldDef;
  /** Entities joined on the way (for join permission checks). */
  joined: CompiledEntity[];
}

/** Resolves `field` or `fk_field.field[.…]` strictly by metadata. */
export function resolvePath(
  registry: EntityRegistry,
  entity: CompiledEntity,
  path: unknown,
  principal: Principal,
  opts: { secretLeaf?: boolean; trusted?: boolean; aliases?: Aliases } = {},
): ResolvedPath {
  if (typeof path !== 'string' || !path)
    throw invalid(`Invalid field ${JSON.stringify(path)}`, { error_field: String(path) });
  const parts = path.split('.');
  if (parts.length - 1 > MAX_PATH_JOINS)
    throw invalid(`Too many joins in ${path} (at most ${MAX_PATH_JOINS})`, { error_field: path });
  let cur = entity;
  const joined: CompiledEntity[] = [];
  // `<alias>.<field>`: a field of an explicitly joined entity.
  const aliased = parts.length > 1 ? opts.aliases?.get(parts[0]) : undefined;
  if (aliased) joined.push((cur = aliased));
  for (let i = aliased ? 1 : 0; i < parts.length - 1; i++) {
    const joinField = v4Field(cur, parts[i]);
    const target = joinField?.fk ? registry.find(joinField.fk) : undefined;
    if (!joinField || !target || !mayRead(joinField, principal, opts.trusted))
      throw invalid(`Invalid field '${path}'`, { error_field: path });
    joined.push(target);
    cur = target;
  }
  const field = v4Field(cur, parts[parts.length - 1]);
  // A secret leaf is allowed only where the caller then omits it (get's select); elsewhere it does not exist.
  if (!field || (!opts.secretLeaf && !mayRead(field, principal, opts.trusted)))
    throw invalid(`Invalid field '${path}'`, { error_field: path });
  return { path, field, joined };
}

const OPS = new Set<string>(V4_OPERATORS);
const NO_VALUE = new Set(['IS NULL', 'IS NOT NULL', 'IS EMPTY', 'IS NOT EMPTY']);
const LISTS = new Set(['IN', 'NOT IN']);
const PAIRS = new Set(['BETWEEN', 'NOT BETWEEN']);

/** Explicit joins' aliases → the joined entities (`join: [["Email AS email", "LEFT"]]`). */
export type Aliases = Map<string, CompiledEntity>;

export interface WhereContext {
  /** Explicit joins' aliases, usable as path prefixes. */
  aliases?: Aliases;
  /** In `having`: the selected output names (aggregate aliases, selected paths) instead of entity fields. */
  outputs?: Map<string, FieldDef>;
  registry: EntityRegistry;
  entity: CompiledEntity;
  principal: Principal;
  /** A trusted call (secrets readable, no row access). */
  trusted?: boolean;
  /** Every resolved path (for join permission checks). */
  paths: ResolvedPath[];
  /** Filters on suffixed paths (`gender_id:name`), translated to stored values once options are loaded. */
  suffixed?: Array<{ filter: Filter; suffix: Suffix; field: FieldDef; path: string }>;
}

/**
 * APIv4 `where`: a list of `[field, op, value]` clauses (AND-ed) and `['OR'|'AND'|'NOT', [clauses]]`
 * groups, nested to any depth (bounded).
 */
export function parseWhere(wc: WhereContext, where: unknown, depth = 0): Condition[] {
  if (where === undefined || where === null) return [];
  if (!Array.isArray(where)) throw invalid('Parameter "where" must be a list of clauses');
  if (depth > MAX_CONDITION_DEPTH) throw invalid(`Where clauses nested deeper than ${MAX_CONDITION_DEPTH} levels`);
  return where.map((clause) => parseClause(wc, clause, depth));
}

function parseClause(wc: WhereContext, clause: unknown, depth: number): Condition {
  if (!Array.isArray(clause) || clause.length < 2 || typeof clause[0] !== 'string') {
    throw invalid(
      `Invalid where clause ${JSON.stringify(clause)?.slice(0, 100)}: expected [field, operator, value] or [OR|AND|NOT, [clauses]]`,
    );
  }
  const head = clause[0];
  if (head === 'OR' || head === 'AND' || head === 'NOT') {
    if (!Array.isArray(clause[1])) throw invalid(`${head} group needs a list of clauses`);
    const items = parseWhere(wc, clause[1], depth + 1);
    if (head === 'OR') return { or: items };
    if (head === 'AND') return { and: items };
    return { not: { and: items } };
  }
  if (clause.length > 4 || (clause.length === 4 && clause[3]))
    throw invalid(`Invalid where clause for ${head}: expressions are not supported`);
  const op = typeof clause[1] === 'string' ? clause[1].toUpperCase().trim().replace(/\s+/g, ' ') : '';
  if (!OPS.has(op))
    throw invalid(`Illegal operator ${JSON.stringify(clause[1])} for ${head}; use one of ${V4_OPERATORS.join(', ')}`, {
      error_field: head,
    });
  const output = wc.outputs?.get(head);
  if (wc.outputs && !output)
    throw invalid(`having ${head}: name a selected field or an aggregate's alias`, { error_field: head });
  const { base, suffix } = output ? { base: head } : splitSuffix(head);
  const resolved = output
    ? { path: head, field: output, joined: [] }
    : resolvePath(wc.registry, wc.entity, base, wc.principal, { trusted: wc.trusted, aliases: wc.aliases });
  wc.paths.push(resolved);
  if (suffix) return suffixedClause(wc, clause, op as Operator, resolved, suffix, head);
  const field = resolved.field;
  const what = `where ${head}`;
  if (NO_VALUE.has(op)) return { path: head, op: op as Operator };
  if (clause.length < 3) throw invalid(`Operator ${op} for ${head} needs a value`, { error_field: head });
  const value = clause[2];
  if (LISTS.has(op)) {
    if (!Array.isArray(value)) throw invalid(`Operator ${op} for ${head} needs a list`, { error_field: head });
    return { path: head, op: op as Operator, value: value.map((x) => scalarFor(field, x, what)) };
  }
  if (PAIRS.has(op)) {
    if (!Array.isArray(value) || value.length !== 2)
      throw invalid(`Operator ${op} for ${head} needs a list of two values`, { error_field: head });
    return { path: head, op: op as Operator, value: value.map((x) => scalarFor(field, x, what)) };
  }
  if (op === 'CONTAINS' || op === 'NOT CONTAINS') {
    const items = Array.isArray(value) ? value : [value];
    if (!items.length || items.some((x) => x === null || typeof x === 'object'))
      throw invalid(`Operator ${op} for ${head} needs a value or a list of values`, { error_field: head });
    return { path: head, op: op as Operator, value: items.map(String) };
  }
  if (value === null) {
    if (op === '=') return { path: head, op: 'IS NULL' };
    if (op === '!=' || op === '<>') return { path: head, op: 'IS NOT NULL' };
  }
  if (op === 'LIKE' || op === 'NOT LIKE') {
    if (typeof value !== 'string' && typeof value !== 'number')
      throw invalid(`Operator ${op} for ${head} needs a string`, { error_field: head });
    return { path: head, op: op as Operator, value: String(value) };
  }
  return { path: head, op: op as Operator, value: scalarFor(field, value, what) };
}

/** A clause on `field:suffix`: option names or labels, kept as given until the options are loaded. */
function suffixedClause(
  wc: WhereContext,
  clause: unknown[],
  op: Operator,
  resolved: ResolvedPath,
  suffix: Suffix,
  head: string,
): Condition {
  const value = clause[2];
  if (!NO_VALUE.has(op) && clause.length < 3)
    throw invalid(`Operator ${op} for ${head} needs a value`, { error_field: head });
  const items = Array.isArray(value) ? value : [value];
  if (!NO_VALUE.has(op) && items.some((item) => item === null || typeof item === 'object'))
    throw invalid(`where ${head}: expected option ${suffix}s`, { error_field: head });
  const filter: Filter = { path: resolved.path, op, value };
  (wc.suffixed ??= []).push({ filter, suffix, field: resolved.field, path: head });
  return filter;
}

function scalarFor(f: FieldDef, v: unknown, what: string): unknown {
  if (v === null || typeof v === 'object') throw invalid(`${what}: expected a scalar value`, { error_field: what });
  if (f.serialize) return String(v);
  return coerceScalar(f, v, what);
}

/** Does any condition name this field (top-level path)? */
export function mentions(conds: Condition[], name: string): boolean {
  return conds.some((c) =>
    'or' in c
      ? mentions(c.or, name)
      : 'and' in c
        ? mentions(c.and, name)
        : 'not' in c
          ? mentions([c.not], name)
          : 'path' in c && c.path === name,
  );
}

export interface SortItem {
  path: string;
  dir: 'ASC' | 'DESC';
  /** Sort by option text (`field:label`): the field and suffix, for the caller to load the options. */
  suffix?: { suffix: Suffix; field: FieldDef; path: string };
}

/** `orderBy: {field: 'ASC'|'DESC'}` (a suffixed field sorts by its options' names or labels). */
export function parseOrderBy(wc: WhereContext, orderBy: unknown): SortItem[] {
  if (orderBy === undefined || orderBy === null) return [];
  if (typeof orderBy !== 'object' || Array.isArray(orderBy))
    throw invalid('Parameter "orderBy" must be an object {field: "ASC"|"DESC"}');
  return Object.entries(orderBy as Record<string, unknown>).map(([path, dir]) => {
    const d = typeof dir === 'string' ? dir.toUpperCase() : '';
    if (d !== 'ASC' && d !== 'DESC')
      throw invalid(`Invalid sort direction ${JSON.stringify(dir)} for ${path}`, { error_field: path });
    // An aggregate's alias (`orderBy: {"count": "DESC"}`) sorts by its value.
    if (wc.outputs?.has(path)) return { path, dir: d };
    const { base, suffix } = splitSuffix(path);
    const resolved = resolvePath(wc.registry, wc.entity, base, wc.principal, {
      trusted: wc.trusted,
      aliases: wc.aliases,
    });
    wc.paths.push(resolved);
    return suffix ? { path: base, dir: d, suffix: { suffix, field: resolved.field, path } } : { path, dir: d };
  });
}
