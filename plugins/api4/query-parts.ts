/**
 * APIv4 get's query parts beyond select/where/orderBy: explicit `join`s, SQL aggregates in `select`
 * (`COUNT(id) AS n`), `groupBy` and `having`. Entities, fields and functions are checked against metadata and
 * whitelists here; the entity store builds the SQL.
 */
import { KernelError, type ActionContext } from '../../kernel';
import {
  AGGREGATES,
  aggregateField,
  type Aggregate,
  type Condition,
  type ExplicitJoin,
  type FieldDef,
  type JoinType,
} from '../entity-core';
import { invalid, parseWhere, resolvePath, v4Field, type WhereContext } from './params';

const LINK_OPS = new Set(['=', '!=', '<>', '<', '>', '<=', '>=']);
const JOIN_TYPES: Record<string, JoinType> = { LEFT: 'LEFT', INNER: 'INNER', EXCLUDE: 'EXCLUDE' };

/** A join condition's side: a field path (root field or `<alias>.<field>`), or undefined for a value. */
function pathOf(wc: WhereContext, side: unknown): string | undefined {
  if (typeof side !== 'string') return undefined;
  const [head, field, ...rest] = side.split('.');
  if (field === undefined) return v4Field(wc.entity, head) ? side : undefined;
  const aliased = wc.aliases?.get(head);
  return aliased && !rest.length && v4Field(aliased, field) ? side : undefined;
}

/** A quoted string in a join condition is a literal (`"Home"`), as the reference reads it. */
const literal = (value: unknown) =>
  typeof value === 'string' && /^(['"]).*\1$/s.test(value) ? value.slice(1, -1) : value;

/** An explicit join onto `entity` needs `get` on it (asked again for each call, even a kept resolution's). */
export async function checkJoinOnto(entity: string, ctx: ActionContext): Promise<void> {
  if (!(await ctx.scope.cradle.api.can(entity, 'get', ctx.principal, { version: 4 })))
    throw new KernelError('E_FORBIDDEN', `Authorization failed: cannot join onto ${entity}`, {
      details: { acl: true },
    });
}

/**
 * `join: [["Email AS email", "LEFT", ["id", "=", "email.contact_id"], ["email.is_primary", "=", true]]]`: the
 * joined entity (which the caller must be allowed to get), its type (`LEFT`, `INNER`, `EXCLUDE`; `true` is
 * INNER and `false` LEFT, the older form), comparisons between fields that link it, and conditions on its own
 * fields. Aliases become path prefixes in select, where, orderBy, groupBy and having.
 */
export async function parseJoins(wc: WhereContext, join: unknown, ctx: ActionContext): Promise<ExplicitJoin[]> {
  if (join === undefined || join === null) return [];
  if (!Array.isArray(join)) throw invalid('Parameter "join" must be a list of [entity AS alias, type, conditions…]');
  const out: ExplicitJoin[] = [];
  wc.aliases ??= new Map();
  for (const spec of join) {
    if (!Array.isArray(spec) || typeof spec[0] !== 'string')
      throw invalid(
        `Invalid join ${JSON.stringify(spec)?.slice(0, 100)}: expected [entity AS alias, type, conditions…]`,
      );
    const match = /^\s*(\w+)(?:\s+AS\s+(\w+))?\s*$/i.exec(spec[0]);
    const target = match ? wc.registry.find(match[1]) : undefined;
    if (!match || !target) throw invalid(`Cannot join ${spec[0]}: no such entity`, { error_field: 'join' });
    const alias = match[2] ?? target.name.toLowerCase();
    const type = typeof spec[1] === 'boolean' ? (spec[1] ? 'INNER' : 'LEFT') : JOIN_TYPES[String(spec[1] ?? 'LEFT')];
    if (!type) throw invalid(`Join ${spec[0]}: type must be LEFT, INNER or EXCLUDE`, { error_field: 'join' });
    if (typeof spec[2] === 'string') throw invalid(`Join ${spec[0]}: bridge joins are not supported`);
    if (!wc.trusted) await checkJoinOnto(target.name, ctx);
    if (wc.aliases.has(alias) || v4Field(wc.entity, alias))
      throw invalid(`Join alias ${alias} is used twice or names a field of ${wc.entity.name}`, { error_field: 'join' });
    wc.aliases.set(alias, target);
    const parsed: ExplicitJoin = { entity: target.name, alias, type, on: [], where: [] };
    const joinedWc: WhereContext = { ...wc, entity: target, aliases: undefined, paths: [], suffixed: [] };
    for (const clause of spec.slice(2)) {
      if (!Array.isArray(clause) || clause.length !== 3 || typeof clause[1] !== 'string')
        throw invalid(`Join ${spec[0]}: each condition is [field, operator, field or value]`, { error_field: 'join' });
      const [left, op, right] = clause as [unknown, string, unknown];
      const [leftPath, rightPath] = [pathOf(wc, left), pathOf(wc, right)];
      if (leftPath && rightPath && LINK_OPS.has(op)) {
        parsed.on.push({ left: leftPath, op: op as ExplicitJoin['on'][number]['op'], right: rightPath });
        continue;
      }
      const own = typeof left === 'string' && left.startsWith(`${alias}.`) ? left.slice(alias.length + 1) : undefined;
      if (!own) throw invalid(`Join ${spec[0]}: a condition with a value must be on ${alias}.<field>`);
      parsed.where.push(...parseWhere(joinedWc, [[own, op, literal(right)]]));
    }
    wc.suffixed = [...(wc.suffixed ?? []), ...(joinedWc.suffixed ?? [])];
    out.push(parsed);
  }
  return out;
}

/**
 * `COUNT(id)`, `SUM(DISTINCT total) AS total`, `GROUP_CONCAT(email.email) AS emails`: an aggregate and the
 * field it outputs (named by its alias, default `COUNT:id`), or undefined for a plain path.
 */
export function parseAggregate(
  wc: WhereContext,
  selected: string,
): { aggregate: Aggregate; output: FieldDef } | undefined {
  const match = /^\s*([A-Z_]+)\(\s*(DISTINCT\s+)?([\w.*]+)\s*\)(?:\s+AS\s+(\w+))?\s*$/i.exec(selected);
  if (!match) return undefined;
  const fn = match[1].toUpperCase() as Aggregate['fn'];
  if (!(AGGREGATES as readonly string[]).includes(fn))
    throw invalid(`Unknown function ${match[1]}; use one of ${AGGREGATES.join(', ')}`, { error_field: selected });
  const path = match[3];
  const aggregate = { fn, path, distinct: Boolean(match[2]), alias: match[4] ?? `${fn}:${path}` };
  if (path === '*') {
    if (fn !== 'COUNT') throw invalid(`${fn}(*) is not allowed; name a field`, { error_field: selected });
    return { aggregate, output: aggregateField(aggregate, undefined) };
  }
  const source = resolvePath(wc.registry, wc.entity, path, wc.principal, wc);
  wc.paths.push(source);
  try {
    return { aggregate, output: aggregateField(aggregate, source.field) };
  } catch (err) {
    throw invalid((err as Error).message, { error_field: selected });
  }
}

/** `groupBy: ["contact_type", "email.location_type_id"]`: paths from metadata. */
export function parseGroupBy(wc: WhereContext, groupBy: unknown): string[] {
  if (groupBy === undefined || groupBy === null) return [];
  if (!Array.isArray(groupBy) || groupBy.some((item) => typeof item !== 'string'))
    throw invalid('Parameter "groupBy" must be a list of field names');
  for (const path of groupBy as string[]) wc.paths.push(resolvePath(wc.registry, wc.entity, path, wc.principal, wc));
  return [...(groupBy as string[])];
}

/** `having`: where-style clauses on the selected output names (aggregate aliases and selected paths). */
export function parseHaving(wc: WhereContext, having: unknown, outputs: Map<string, FieldDef>): Condition[] {
  if (having === undefined || having === null) return [];
  return parseWhere({ ...wc, outputs, suffixed: [] }, having);
}
