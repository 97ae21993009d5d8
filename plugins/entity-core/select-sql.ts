/**
 * The select list of a read. Plain reads select field paths, sorted with the id last. Grouped reads take
 * aggregates (`COUNT(id) AS n`), `groupBy` and `having`: the grouped query is a subquery whose output columns
 * the outer query filters (having), sorts and pages, so having and sort reuse the ordinary filters.
 * Function names come from a whitelist, paths from metadata; values are bound.
 */
import type { Knex } from 'knex';
import { holds, KernelError, type Principal } from '../../kernel';
import { limitExceeded } from '../../host';
import type { Aggregate, Condition, Query } from './conditions';
import { applyPlanned } from './planned';
import { unknownField, type Planned, type Planner, type Resolved } from './planner';
import type { FieldDef } from './types';
import { fromDb, type FieldCipher } from './values';

/** A selected output column: a field path or an aggregate, with how its stored value is read back. */
export interface Column {
  path: string;
  resolved: Resolved;
  aggregate?: Aggregate;
}

export type SortItem = NonNullable<Query['sort']>[number] & { resolved: Resolved };

const NUMERIC = new Set(['Int', 'Float', 'Money']);

function invalidAggregate(message: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 0 } });
}

/** The output field of an aggregate: its name is the alias, its type what the function returns. */
export function aggregateField(aggregate: Aggregate, source: FieldDef | undefined): FieldDef {
  const base = { name: aggregate.alias, title: aggregate.alias };
  if (aggregate.fn === 'COUNT') return { ...base, type: 'Int' };
  if (!source) throw invalidAggregate(`${aggregate.fn}(*) is not allowed; name a field`);
  if ((aggregate.fn === 'SUM' || aggregate.fn === 'AVG') && !NUMERIC.has(source.type))
    throw invalidAggregate(`${aggregate.fn} needs a number field; ${aggregate.path} is ${source.type}`);
  if (aggregate.fn === 'AVG') return { ...base, type: 'Float' };
  // GROUP_CONCAT: a list of the field's values (read back one by one, below).
  if (aggregate.fn === 'GROUP_CONCAT') return { ...source, ...base, serialize: 'json', collection: undefined };
  return { ...source, ...base, serialize: source.serialize, collection: undefined };
}

export function planColumn(planner: Planner, item: string | Aggregate): Column {
  if (typeof item === 'string') return { path: item, resolved: planner.resolve(item, 'select') };
  const source = item.path === '*' ? undefined : planner.resolve(item.path, 'select');
  if (source && (!source.ref || source.field.related)) throw unknownField(item.path);
  return {
    path: item.alias,
    aggregate: item,
    resolved: { ref: source?.ref ?? '', field: aggregateField(item, source?.field) },
  };
}

/** Reads a stored value of a column as the API shows it (each item of a GROUP_CONCAT list too). */
export function readColumn(column: Column, value: unknown, source: (column: Column) => FieldDef, cipher?: FieldCipher) {
  if (column.aggregate?.fn === 'GROUP_CONCAT')
    return Array.isArray(value) ? value.map((item) => fromDb(source(column), item, cipher)) : [];
  return fromDb(column.resolved.field, value, cipher);
}

/** An ungrouped read: the columns, then the sort (the id last, so pages are stable). */
export function plainQuery(db: Knex, qb: Knex.QueryBuilder, columns: Column[], sort: SortItem[]): Knex.QueryBuilder {
  const selects: Record<string, string | Knex.Raw> = {};
  columns.forEach((column, index) => {
    const { ref, expression } = column.resolved;
    selects[`c${index}`] = expression ? db.raw(expression.sql, expression.bindings) : ref;
  });
  qb.select(selects);
  return orderRows(qb, sort);
}

/** The sort of an ungrouped read, the id last so pages are stable. */
export function orderRows(qb: Knex.QueryBuilder, sort: SortItem[]): Knex.QueryBuilder {
  for (const item of sort) {
    const dir = item.dir === 'DESC' ? 'desc' : 'asc';
    if (item.byValues?.length)
      qb.orderByRaw(`array_position(?::text[], ??::text) ${dir}`, [item.byValues, item.resolved.ref]);
    else qb.orderBy(item.resolved.ref, dir);
  }
  if (!sort.some((item) => item.resolved.ref === 't.id')) qb.orderBy('t.id', 'asc');
  return qb;
}

/** The SQL of a column in a grouped query: grouped paths as they are, others one row's value, aggregates. */
function expression(db: Knex, column: Column, grouped: Set<string>): Knex.Raw | string {
  const { ref, field } = column.resolved;
  const aggregate = column.aggregate;
  if (!aggregate) return grouped.has(ref) ? ref : db.raw('(array_agg(??))[1]', [ref]);
  const distinct = aggregate.distinct ? 'distinct ' : '';
  if (aggregate.fn === 'COUNT') return ref ? db.raw(`count(${distinct}??)`, [ref]) : db.raw('count(*)');
  if (aggregate.fn === 'GROUP_CONCAT') {
    // In the order of the rows' ids (of the values themselves with DISTINCT, as PostgreSQL requires).
    const order = aggregate.distinct ? ref : `${ref.split('.')[0]}.id`;
    return db.raw(`array_remove(array_agg(${distinct}?? order by ??), null)`, [ref, order]);
  }
  // PostgreSQL has no min/max of booleans: bool_and/bool_or are the same thing.
  if (field.type === 'Boolean' && (aggregate.fn === 'MIN' || aggregate.fn === 'MAX'))
    return db.raw(aggregate.fn === 'MIN' ? 'bool_and(??)' : 'bool_or(??)', [ref]);
  return db.raw(`${aggregate.fn.toLowerCase()}(${distinct}??)`, [ref]);
}

/** `having` conditions on output names, as planned filters on the outer query's columns. */
function planHaving(condition: Condition, outputs: Map<string, { ref: string; field: FieldDef }>): Planned {
  if ('or' in condition) return { kind: 'or', items: condition.or.map((item) => planHaving(item, outputs)) };
  if ('and' in condition) return { kind: 'and', items: condition.and.map((item) => planHaving(item, outputs)) };
  if ('not' in condition) return { kind: 'not', items: [planHaving(condition.not, outputs)] };
  if ('exists' in condition) throw invalidAggregate('having takes conditions on selected columns only');
  const output = outputs.get(condition.path);
  if (!output) throw invalidAggregate(`having ${condition.path}: select it first (having filters selected columns)`);
  return { kind: 'filter', filter: condition, resolved: output };
}

/**
 * The grouped read: `SELECT c0… FROM (SELECT <columns>, <sort keys> FROM … GROUP BY …) g WHERE <having>
 * ORDER BY …`; the caller pages it.
 */
export function groupedQuery(
  db: Knex,
  inner: Knex.QueryBuilder,
  planner: Planner,
  columns: Column[],
  sort: SortItem[],
  query: Query,
): Knex.QueryBuilder {
  const groupRefs = (query.groupBy ?? []).map((path) => {
    const resolved = planner.resolve(path, 'select');
    if (!resolved.ref || resolved.field.related) throw unknownField(path);
    return resolved.ref;
  });
  const grouped = new Set(groupRefs);
  const selects: Record<string, string | Knex.Raw> = {};
  const outputs = new Map<string, { ref: string; field: FieldDef }>();
  columns.forEach((column, index) => {
    selects[`c${index}`] = expression(db, column, grouped);
    outputs.set(column.path, { ref: `g.c${index}`, field: column.resolved.field });
  });
  const order: Array<{ ref: string; dir: string }> = [];
  sort.forEach((item, index) => {
    const dir = item.dir === 'DESC' ? 'desc' : 'asc';
    const output = outputs.get(item.path);
    if (output && !item.byValues?.length) return order.push({ ref: output.ref, dir });
    const value = expression(db, { path: item.path, resolved: item.resolved }, grouped);
    selects[`s${index}`] = item.byValues?.length
      ? db.raw(`array_position(?::text[], (${typeof value === 'string' ? '??' : '?'})::text)`, [item.byValues, value])
      : value;
    order.push({ ref: `g.s${index}`, dir });
  });
  inner.select(selects);
  if (groupRefs.length) inner.groupBy(groupRefs);
  const outer = db.select(columns.map((_column, index) => `g.c${index}`)).from(inner.as('g'));
  for (const condition of query.having ?? []) applyPlanned(outer, planHaving(condition, outputs));
  for (const item of order) outer.orderBy(item.ref, item.dir);
  // Without a sort, groups come in the order of their selected grouped columns.
  if (!order.length)
    columns.forEach((column, index) => {
      if (!column.aggregate && grouped.has(column.resolved.ref)) outer.orderBy(`g.c${index}`, 'asc');
    });
  return outer;
}

/** Does this read group rows (a groupBy, or an aggregate in its select)? */
export const isGrouped = (query: Query): boolean =>
  Boolean(query.groupBy?.length) || Boolean(query.select?.some((item) => typeof item !== 'string'));

/**
 * A caller without `administer CRM` gets at most `rowsPerRead` rows; a read matching more is refused (never
 * cut short silently), so one more row than that is asked for. Limit and offset are checked here: the API
 * layers validate them, the store refuses them too, so no caller ever reaches knex's own error.
 */
export function readCeiling(query: Query, principal: Principal | null, rowsPerRead: number): number {
  for (const [name, value] of [
    ['limit', query.limit],
    ['offset', query.offset],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
      throw new KernelError('E_INVALID_PARAMS', `${name} must be a non-negative integer`);
  }
  return principal && !holds('administer CRM', principal.permissions) ? rowsPerRead : 0;
}

/** The row limit a read asks for: its own, or with a row `ceiling` one more than the ceiling (see checkCeiling). */
export function limitRead(qb: Knex.QueryBuilder, ceiling: number, query: Query): Knex.QueryBuilder {
  const limit = ceiling && (!query.limit || query.limit > ceiling) ? ceiling + 1 : query.limit;
  if (limit) qb.limit(limit);
  if (query.offset) qb.offset(query.offset);
  return qb;
}

/**
 * A caller with a row `ceiling` (no `administer CRM`) gets at most that many rows; a read matching more is
 * refused, never cut short silently, so one more is asked for.
 */
export function checkCeiling<T>(rows: T[], ceiling: number): T[] {
  if (ceiling && rows.length > ceiling)
    throw limitExceeded(
      `More than ${ceiling} rows match; ask for fewer (options.limit / offset, limits.rowsPerRead)`,
      'rowsPerRead',
      ceiling,
    );
  return rows;
}
