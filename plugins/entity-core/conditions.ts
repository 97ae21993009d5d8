/**
 * The query language of the entity store: filters on metadata field paths, nested groups, and EXISTS over a
 * related entity (for row-access rules). The API layers build these from wire params; nothing here is SQL.
 */
export const OPERATORS = [
  '=',
  '<=',
  '>=',
  '>',
  '<',
  'LIKE',
  '<>',
  '!=',
  'NOT LIKE',
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
  'IS NOT NULL',
  'IS NULL',
] as const;
/** APIv4's operators: APIv3's plus emptiness tests and CONTAINS (serialized fields, substrings). */
export const V4_OPERATORS = [...OPERATORS, 'IS EMPTY', 'IS NOT EMPTY', 'CONTAINS', 'NOT CONTAINS'] as const;
export type Operator = (typeof V4_OPERATORS)[number];
/** Most FK hops one path may take (`contact_id.employer_id.…`). */
export const MAX_JOINS = 4;
/** Nesting depth guard: a caller cannot make the planner recurse without bound. */
export const MAX_CONDITION_DEPTH = 16;

export interface Filter {
  /** Field name, or a dotted FK path (`contact_id.display_name`). */
  path: string;
  op: Operator;
  value?: unknown;
}

/**
 * Rows of another entity point at this row: `EXISTS (SELECT 1 FROM <entity> WHERE <entity>.<field> =
 * this.<ref> AND <where>)`. `ref` defaults to `id`. Row-access rules use it for records tied to many contacts
 * (an activity's contacts) and group-based rules (a contact's group memberships).
 */
export interface Exists {
  entity: string;
  /** The child's field equal to this row's `ref`; omitted, the EXISTS does not depend on the row. */
  field?: string;
  ref?: string;
  where?: Condition[];
}

/**
 * One condition: a filter, or a group. `{or: [...]}` with plain filters is the APIv3 shape; APIv4 nests
 * `{and}`, `{or}` and `{not}` groups to any depth. `{exists}` comes from rules and lifecycle code, never
 * from a caller's params.
 */
export type Condition = Filter | { or: Condition[] } | { and: Condition[] } | { not: Condition } | { exists: Exists };

/** Every field path of the root entity a condition uses (for join permission checks). */
export function conditionPaths(condition: Condition): string[] {
  if ('or' in condition) return condition.or.flatMap(conditionPaths);
  if ('and' in condition) return condition.and.flatMap(conditionPaths);
  if ('not' in condition) return conditionPaths(condition.not);
  if ('exists' in condition) return [condition.exists.ref ?? 'id'];
  return [condition.path];
}

/** SQL aggregate functions a select may use (APIv4 `COUNT(id) AS n`); GROUP_CONCAT gives a list. */
export const AGGREGATES = ['COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'GROUP_CONCAT'] as const;

/** `fn([DISTINCT] path) AS alias` in a select; `path` is `*` only for COUNT. */
export interface Aggregate {
  fn: (typeof AGGREGATES)[number];
  path: string;
  distinct?: boolean;
  alias: string;
}

/** How an explicit join keeps root rows: LEFT keeps all, INNER those with a match, EXCLUDE those without. */
export type JoinType = 'LEFT' | 'INNER' | 'EXCLUDE';

/**
 * An explicit join (APIv4 `join`): `<entity> AS <alias>`, linked by `on` comparisons between a field of the
 * root (or of an earlier join, `<alias>.<field>`) and a field of this one, and narrowed by `where` on its own
 * fields. Without `on` the store links it over a foreign key between the two entities.
 */
export interface ExplicitJoin {
  entity: string;
  alias: string;
  type: JoinType;
  on: Array<{ left: string; op: '=' | '!=' | '<>' | '<' | '>' | '<=' | '>='; right: string }>;
  /** Conditions on the joined entity's own fields (paths without the alias). */
  where: Condition[];
}

export interface Query {
  where?: Condition[];
  /** Field names / dotted paths (or aggregates) to return; default every stored field. */
  select?: Array<string | Aggregate>;
  joins?: ExplicitJoin[];
  /** Paths to group by: with it (or an aggregate) a plain selected path not grouped reads one row's value. */
  groupBy?: string[];
  /** Conditions on the selected output names (aliases of aggregates, selected paths), after grouping. */
  having?: Condition[];
  /** `byValues`: sort by the position of the value in this list (options ordered by their label). */
  sort?: Array<{ path: string; dir: 'ASC' | 'DESC'; byValues?: string[] }>;
  /** 0 or undefined = no limit. */
  limit?: number;
  /** Also apply row access (view) to entities reached by FK joins (APIv4); a hidden joined row reads as NULL. */
  joinAccess?: boolean;
  offset?: number;
}
