/**
 * The joins of a planned query as SQL: FK joins (`contact_id.display_name`), related-record joins (Contact's
 * primary email) and explicit joins (APIv4 `join`), each with the row-access and narrowing conditions that go
 * in its ON clause. Identifiers come from metadata; values are bound.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { Condition, ExplicitJoin } from './conditions';
import { applyPlanned } from './planned';
import type { Planned, Planner } from './planner';
import type { CompiledEntity, FieldDef } from './types';
import { toDbValue } from './values';

/** Rows of a joined entity a condition allows: an EXISTS on the same table, in the join's ON clause. */
export interface JoinFilter {
  planner: Planner;
  where: Planned[];
}

export interface Join {
  alias: string;
  entity: CompiledEntity;
  from: string;
  column: string;
  inner: boolean;
  /** For a join over a single-valued collection (an activity's source contact): the subquery giving the id. */
  expression?: { sql: string; bindings: Knex.Value[] };
  /** Rows of the joined entity the caller may see, as conditions on it (row access on joins). */
  restriction?: JoinFilter | 'none';
  /** An explicit join: its ON comparisons (resolved columns), own conditions, and whether it excludes. */
  explicit?: { link: Array<{ left: string; op: string; right: string }>; narrow?: JoinFilter; exclude: boolean };
}

export interface RelatedJoin {
  alias: string;
  entity: CompiledEntity;
  fk: string;
  where: Record<string, unknown>;
  from: string;
}

export const columnOf = (field: FieldDef): string => field.column ?? field.name;

export function invalidJoin(message: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, { details: { error_code: 0 } });
}

/** Most explicit joins one query may make. */
export const MAX_EXPLICIT_JOINS = 10;

/**
 * Checks an explicit join's alias and finds its link when `on` gives none: a field of the joined entity
 * pointing at the root (`Email.contact_id`), else a root field pointing at it.
 */
export function explicitLink(
  root: CompiledEntity,
  target: CompiledEntity,
  join: ExplicitJoin,
  taken: (alias: string) => boolean,
): ExplicitJoin['on'] {
  // An alias shadows a field of the same name in paths; one naming a reference (`contact_id`) is ambiguous.
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(join.alias) || root.lookup.get(join.alias)?.fk || taken(join.alias))
    throw invalidJoin(
      `Invalid join alias '${join.alias}': a name of letters, digits and _ not used by a reference or join`,
    );
  if (join.on.length) return join.on;
  const stored = (field: FieldDef) => !field.related && !field.collection && !field.labelOf && !field.via;
  const back = target.fields.find((field) => field.fk === root.name && stored(field));
  if (back) return [{ left: 'id', op: '=', right: `${join.alias}.${back.name}` }];
  const forward = root.fields.find((field) => field.fk === target.name && stored(field));
  if (forward) return [{ left: forward.name, op: '=', right: `${join.alias}.id` }];
  throw invalidJoin(`Cannot join ${target.name} to ${root.name} without a condition: no foreign key links them`);
}

/** An EXISTS in a join's ON clause: the joined row passes the filter's conditions. */
function existsOn(clause: Knex.JoinClause, alias: string, filter: JoinFilter): void {
  clause.andOnExists(function (this: Knex.QueryBuilder) {
    filter.planner.from(this);
    this.whereRaw('?? = ??', [`${filter.planner.rootAlias}.id`, `${alias}.id`]);
    for (const item of filter.where) applyPlanned(this, item);
  });
}

export function applyFkJoin(qb: Knex.QueryBuilder, join: Join): void {
  const on = (clause: Knex.JoinClause) => {
    if (join.explicit) for (const link of join.explicit.link) clause.on(link.left, link.op, link.right);
    else if (join.expression)
      clause.on(`${join.alias}.id`, '=', qb.client.raw(join.expression.sql, join.expression.bindings));
    else clause.on(`${join.alias}.id`, '=', `${join.from}.${join.column}`);
    if (join.explicit?.narrow) existsOn(clause, join.alias, join.explicit.narrow);
    if (join.restriction === 'none') clause.andOnVal(`${join.alias}.id`, '=', -1);
    else if (join.restriction) existsOn(clause, join.alias, join.restriction);
  };
  const table = `${join.entity.table} as ${join.alias}`;
  if (join.inner) qb.innerJoin(table, on);
  else qb.leftJoin(table, on);
  // EXCLUDE: the root rows with no joined row.
  if (join.explicit?.exclude) qb.whereNull(`${join.alias}.id`);
}

/** A bound on the root's id that every row of the query satisfies (a top-level `id >`, `>=`, `<`, `<=` filter). */
export type IdBound = { op: '>' | '>=' | '<' | '<='; value: number };

export function rootIdBounds(where: Condition[] | undefined): IdBound[] {
  return (where ?? []).flatMap((cond) =>
    'path' in cond && cond.path === 'id' && ['>', '>=', '<', '<='].includes(cond.op) && Number.isSafeInteger(cond.value)
      ? [{ op: cond.op as IdBound['op'], value: cond.value as number }]
      : [],
  );
}

/**
 * A related record's join (`email_primary`); `bounds` on the root's id hold for its foreign key too, and said
 * in the ON clause they let PostgreSQL start its scan of the related table there (a keyset page `id > n`
 * of an export otherwise reads the related index from its start: quadratic over the pages).
 */
export function applyRelatedJoin(qb: Knex.QueryBuilder, related: RelatedJoin, bounds: IdBound[] = []): void {
  const fkField = related.entity.byName.get(related.fk)!;
  qb.leftJoin(`${related.entity.table} as ${related.alias}`, (clause) => {
    clause.on(`${related.alias}.${columnOf(fkField)}`, '=', `${related.from}.id`);
    for (const bound of bounds) clause.andOnVal(`${related.alias}.${columnOf(fkField)}`, bound.op, bound.value);
    for (const [name, value] of Object.entries(related.where)) {
      const field = related.entity.byName.get(name)!;
      clause.andOnVal(`${related.alias}.${columnOf(field)}`, '=', toDbValue(field, value) as Knex.Value);
    }
  });
}
