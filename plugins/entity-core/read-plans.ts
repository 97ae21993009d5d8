/**
 * Compiled reads, remembered: the statement a read planned to (its SQL text and bindings) and how to read its
 * columns back, keyed by the entity, the query and the row ceiling, and valid only under the row-access
 * answers it was planned with. A read asked again (a page a client polls, a dashboard, the next call of a
 * sync job with the same conditions) skips resolving paths, planning joins and knex's building and compiling
 * of the statement: about a third of a light read's time in the store (docs/performance.md).
 *
 * What a plan depends on, and how each is checked:
 * - the query: its JSON text is the key (values included: a plan's bindings are the query's own values);
 * - metadata and option lists (custom fields, `:name` values, option sorts resolve through them): every
 *   entry is forgotten when the registry's option generation moves, which run-time metadata changes and
 *   option writes on any instance (the change bus) both do;
 * - the caller's row access: the answers (root, and joined entities for `joinAccess`) are asked on every
 *   read as before, and a plan is used only when they equal the ones it was planned under.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../kernel';
import type { CompiledEntity, FieldDef } from './types';
import type { Column } from './select-sql';
import type { RowAccess } from './hooks';
import type { Planner } from './planner';
import type { RowAccessControl } from './row-access';
import type { JsonRowReader } from './json-rows';
import { KeptByVersion } from './kept';

export interface ReadPlan {
  entity: CompiledEntity;
  /** For a read rendered as JSON by PostgreSQL (json-rows.ts): how a row becomes its record; null when it cannot be. */
  reader?: JsonRowReader | null;
  sql: string;
  bindings: readonly Knex.Value[];
  columns: Column[];
  /** The field a GROUP_CONCAT column's items are read as (readColumn's `source`). */
  source(column: Column): FieldDef;
  /** Entities joined with their own row access applied (`joinAccess`), in the order their answers are compared. */
  restricted: CompiledEntity[];
  /** The row-access answers the statement carries: root first, then each of `restricted`. */
  access: string;
}

/** The text a set of access answers is compared by (conditions are plain data). */
function accessText(answers: Array<RowAccess | null>): string {
  return JSON.stringify(answers);
}

/** A planned read (the store's plan, limit and offset applied) as a plan to keep. */
export function compiledPlan(
  entity: CompiledEntity,
  qb: Knex.QueryBuilder,
  planned: { columns: Column[]; planner: Planner; answers: Array<[CompiledEntity, RowAccess | null]> },
): ReadPlan {
  const { sql, bindings } = qb.toSQL();
  const { columns, planner, answers } = planned;
  const sources = new Map<Column, FieldDef>();
  for (const column of columns)
    if (column.aggregate?.fn === 'GROUP_CONCAT')
      sources.set(column, planner.resolve(column.aggregate.path, 'select').field);
  return {
    entity,
    sql,
    // Lists copied: a caller changing its query's arrays afterwards must not change a kept statement's values.
    bindings: bindings.map((value) => (Array.isArray(value) ? [...value] : value)) as Knex.Value[],
    columns,
    source: (column) => sources.get(column)!,
    restricted: answers.slice(1).map(([joined]) => joined),
    access: accessText(answers.map(([, answer]) => answer)),
  };
}

/** The row access a plan's statement would carry for this caller now (asked as a read plans it). */
export async function accessNow(
  access: RowAccessControl,
  plan: ReadPlan,
  principal: Principal | null,
): Promise<string> {
  if (!principal) return accessText([null]);
  const answers = [await access.answer(plan.entity, 'view', principal)];
  for (const joined of plan.restricted) answers.push(await access.answer(joined, 'view', principal));
  return accessText(answers);
}

/** The longest query (as JSON) whose plan is kept. */
const MAX_QUERY_TEXT = 8192;

/** Compiled reads by key (at most 256 by default; each holds one statement's text, ~0.2–3 KB). */
export class ReadPlans extends KeptByVersion<ReadPlan> {
  /**
   * The key of a read; undefined when the query is not plain data or is long (a list of thousands of ids: such a
   * read is seldom asked again, and its key and statement would hold memory), so it is planned every time.
   */
  key(entity: CompiledEntity, query: unknown, ceiling: number): string | undefined {
    let text: string;
    try {
      text = JSON.stringify(query);
    } catch {
      return undefined;
    }
    return text.length > MAX_QUERY_TEXT ? undefined : `${entity.name}\u0000${ceiling}\u0000${text}`;
  }
}

/** What a knex client does for a query, beyond the builder's interface (knex's own Runner calls the same). */
interface QueryClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  query(connection: unknown, query: object): Promise<unknown>;
  processResponse(response: unknown, runner: undefined): unknown;
  /** The host's pipelined connection for an autocommit read of this statement, if it offers one now (host/pipelined-reads.ts). */
  pipelinedConnection?(statement: string): unknown;
}

/**
 * Runs a kept statement, rows as arrays: straight through the client (the pool's connection, or the
 * transaction's), as knex's own runner would, without building a raw query object, re-scanning its text for
 * bindings and the runner around it (~7% of a light page's CPU over HTTP; docs/performance.md). The client still
 * emits its `query` event (statement counts, `sqlDuring`). Errors are the driver's; callers reword them.
 */
export async function runPlan(db: Knex, plan: Pick<ReadPlan, 'sql' | 'bindings'>): Promise<unknown[][]> {
  const client = db.client as unknown as QueryClient;
  // The client positions the bindings into the text and may convert them in place: it gets its own list.
  const statement = { method: 'raw', sql: plan.sql, bindings: [...plan.bindings], options: { rowMode: 'array' } };
  const rowsOf = (ran: unknown) => (client.processResponse(ran, undefined) as { rows: unknown[][] }).rows;
  // Outside a transaction, on a connection shared with other requests' reads when the host offers one.
  const shared = db.isTransaction ? undefined : client.pipelinedConnection?.(plan.sql);
  if (shared) return rowsOf(await client.query(shared, statement));
  const connection = await client.acquireConnection();
  try {
    return rowsOf(await client.query(connection, statement));
  } finally {
    await client.releaseConnection(connection);
  }
}
