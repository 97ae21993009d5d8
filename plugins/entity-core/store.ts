/**
 * The metadata-driven SQL store. Identifiers (tables, columns, joins, operators, sort) come only from
 * entity metadata and the operator whitelist; every value is a bound parameter. Reads apply row access as
 * conditions ({@link RowAccessControl}); writes are checked by the entity service before they run.
 */
import type { Knex } from 'knex';
import { KernelError, type Principal } from '../../kernel';
import { DEFAULT_LIMITS, type Limits } from '../../host';
import type { Aggregate, Query } from './conditions';
import { guarded } from './db-errors';
import { applyPlanned, Planner, type Resolved } from './planner';
import { rootIdBounds } from './joins';
import {
  checkCeiling,
  groupedQuery,
  isGrouped,
  limitRead,
  orderRows,
  planColumn,
  plainQuery,
  readCeiling,
  readColumn,
  type Column,
} from './select-sql';
import { accessNow, compiledPlan, ReadPlans, runPlan, type ReadPlan } from './read-plans';
import type { RowAccess } from './hooks';
import { selectJson, type JsonRender, type JsonRow } from './json-rows';
import { StoreWrites } from './store-writes';
import { checkInLists } from './list-filters';
import type { EntityRegistry } from './registry';
import { RowAccessControl, type AccessRules } from './row-access';
import type { CompiledEntity } from './types';
import type { FieldCipher } from './values';

type Row = Record<string, unknown>;
type Planned = Awaited<ReturnType<EntityStore['plan']>>;

export class EntityStore extends StoreWrites {
  readonly access: RowAccessControl;
  /** Compiled reads (read-plans.ts), forgotten whenever metadata or option lists change. */
  readonly plans: ReadPlans;

  constructor(
    readonly registry: EntityRegistry,
    rules: AccessRules,
    /** Seals `encrypted` fields at rest (the host's `secretBox`); without it they are stored as given. */
    cipher?: FieldCipher,
    readonly limits: Pick<Limits, 'inList' | 'rowsPerRead'> = DEFAULT_LIMITS,
  ) {
    super(cipher);
    this.access = new RowAccessControl(registry, rules);
    this.plans = new ReadPlans(() => registry.optionsVersion);
  }

  /**
   * The query without its select list: joins, the caller's conditions and the principal's view access
   * (root and, with `joinAccess`, joined entities). Every path is resolved before any SQL is built.
   */
  private async plan(
    db: Knex,
    entity: CompiledEntity,
    query: Query,
    principal: Principal | null,
    paths: Array<string | Aggregate>,
  ) {
    checkInLists(query.where, this.limits.inList);
    const planner = new Planner(this.registry, entity);
    planner.idBounds = rootIdBounds(query.where);
    for (const join of query.joins ?? []) planner.addExplicitJoin(join);
    const where = (query.where ?? []).map((condition) => planner.plan(condition));
    const columns = paths
      .filter((path) => typeof path !== 'string' || !entity.lookup.get(path)?.labelOf)
      .map((path) => planColumn(planner, path));
    const sort = (query.sort ?? []).map((item) => ({ ...item, resolved: this.sortKey(planner, item.path, columns) }));
    // The access answers the statement carries, root first (read-plans.ts compares them).
    const answers: Array<[CompiledEntity, RowAccess | null]> = [[entity, null]];
    if (principal) {
      answers[0][1] = await this.access.answer(entity, 'view', principal);
      where.push(...this.access.planRoot(planner, answers[0][1]));
      if (query.joinAccess) answers.push(...(await this.access.restrictJoins(planner, principal)));
    }
    const qb = db(`${entity.table} as ${planner.rootAlias}`);
    planner.applyJoins(qb);
    for (const condition of where) applyPlanned(qb, condition);
    return { qb, columns, sort, planner, answers };
  }

  /** A sort path: a field path, or the name of a selected aggregate (`orderBy: {count: 'DESC'}`). */
  private sortKey(planner: Planner, path: string, columns: Column[]): Resolved {
    const aggregate = columns.find((column) => column.aggregate && column.path === path);
    return aggregate ? aggregate.resolved : planner.resolve(path, 'sort');
  }

  async select(db: Knex, entity: CompiledEntity, query: Query, principal: Principal | null): Promise<Row[]> {
    const { paths, rows } = await this.selectRows(db, entity, query, principal);
    return rows.map((row) => {
      const record: Row = {};
      for (let index = 0; index < paths.length; index++) record[paths[index]] = row[index];
      return record;
    });
  }

  /**
   * As {@link select}, with each row as an array in the order of `paths` (the selected field paths): for a
   * caller that renders rows its own way, without an intermediate object per row. A read asked before, under
   * the same row access, runs the statement it compiled to then (read-plans.ts).
   */
  async selectRows(
    db: Knex,
    entity: CompiledEntity,
    query: Query,
    principal: Principal | null,
  ): Promise<{ paths: string[]; rows: unknown[][] }> {
    const ceiling = readCeiling(query, principal, this.limits.rowsPerRead);
    const plan = await this.planFor(entity, query, principal, ceiling, () =>
      this.compileRead(db, entity, query, principal, ceiling),
    );
    // Rows as arrays in select order: the driver builds no object per row either.
    const { columns, source } = plan;
    const rows = checkCeiling(await guarded(() => runPlan(db, plan)), ceiling);
    for (const row of rows)
      for (let index = 0; index < columns.length; index++)
        row[index] = readColumn(columns[index], row[index], source, this.cipher);
    return { paths: columns.map((column) => column.path), rows };
  }

  /**
   * The plan kept for this read (`keyed`: what its statement depends on besides the entity and ceiling) when
   * this caller's row access is still the one it was planned under; else a new one from `compile`, kept.
   */
  private async planFor(
    entity: CompiledEntity,
    keyed: unknown,
    principal: Principal | null,
    ceiling: number,
    compile: () => Promise<ReadPlan>,
  ): Promise<ReadPlan> {
    // Reads of the service's own (no principal: mostly by id, while writing) are not kept.
    const key = principal ? this.plans.key(entity, keyed, ceiling) : undefined;
    let plan = key === undefined ? undefined : this.plans.get(key, entity);
    if (plan && plan.access !== (await accessNow(this.access, plan, principal))) plan = undefined;
    return plan ?? this.plans.made(key, compile);
  }

  /** Plans a read and compiles its statement (with limit and offset) to text and bindings. */
  private async compileRead(
    db: Knex,
    entity: CompiledEntity,
    query: Query,
    principal: Principal | null,
    ceiling: number,
  ): Promise<ReadPlan> {
    const planned = await this.plan(db, entity, query, principal, query.select ?? this.defaultSelect(entity));
    const qb = isGrouped(query)
      ? this.grouped(db, planned, query)
      : plainQuery(db, planned.qb, planned.columns, planned.sort);
    return compiledPlan(entity, limitRead(qb, ceiling, query), planned);
  }

  /**
   * As {@link selectRows}, each row rendered as JSON text by PostgreSQL (json-rows.ts); null when a selected
   * column cannot be rendered there, or a row holds a value PostgreSQL would print otherwise than Node.
   */
  async selectJson(
    db: Knex,
    entity: CompiledEntity,
    query: Query,
    principal: Principal | null,
    render: JsonRender,
  ): Promise<JsonRow[] | null> {
    if (isGrouped(query)) return null;
    const ceiling = readCeiling(query, principal, this.limits.rowsPerRead);
    // Kept as other reads are, with how its rows are rendered (keys, labels) as part of what it depends on.
    const plan = await this.planFor(entity, { json: render, query }, principal, ceiling, async () => {
      const planned = await this.plan(db, entity, query, principal, query.select ?? this.defaultSelect(entity));
      const reader = selectJson(db, planned.qb, planned.columns, render);
      return {
        ...compiledPlan(entity, limitRead(orderRows(planned.qb, planned.sort), ceiling, query), planned),
        reader,
      };
    });
    if (!plan.reader) return null;
    const records = checkCeiling(await guarded(() => runPlan(db, plan)), ceiling).map(plan.reader);
    return records.some((row) => row.f) ? null : records;
  }

  private grouped(db: Knex, { qb, columns, sort, planner }: Planned, query: Query): Knex.QueryBuilder {
    if (columns.some((column) => column.resolved.expression))
      throw new KernelError('E_INVALID_PARAMS', 'A list field cannot be selected in a grouped read; use GROUP_CONCAT');
    return groupedQuery(db, qb, planner, columns, sort, query);
  }

  /** How many rows (groups, for a grouped read) match. */
  async count(db: Knex, entity: CompiledEntity, query: Query, principal: Principal | null): Promise<number> {
    const grouped = isGrouped(query);
    const planned = await this.plan(
      db,
      entity,
      { ...query, sort: [] },
      principal,
      grouped ? groupedSelect(query) : ['id'],
    );
    const counted: Knex.QueryBuilder = grouped ? db.from(this.grouped(db, planned, query).as('q')) : planned.qb;
    const [row] = (await guarded(async () => counted.count({ n: '*' }))) as Array<{ n: string | number }>;
    return Number(row.n);
  }

  /** The stored row by id (field names), without access checks. */
  async byId(db: Knex, entity: CompiledEntity, id: number): Promise<Row | null> {
    const rows = await this.select(db, entity, { where: [{ path: 'id', op: '=', value: id }], limit: 1 }, null);
    return rows[0] ?? null;
  }
}

/** What a grouped count selects: the read's select, or its grouped paths when it selects none. */
const groupedSelect = (query: Query) => (query.select?.length ? query.select : query.groupBy!);
