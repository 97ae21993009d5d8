/**
 * The metadata-driven SQL store. Identifiers (tables, columns, joins, operators, sort) come only from
 * entity metadata and the operator whitelist; every value is a bound parameter. Reads apply row access as
 * conditions ({@link RowAccessControl}); writes are checked by the entity service before they run.
 */
import type { Knex } from 'knex';
import { holds, KernelError, type Principal } from '../../kernel';
import { DEFAULT_LIMITS, type Limits } from '../../host';
import type { Aggregate, Query } from './conditions';
import { guarded } from './db-errors';
import { insertUnnest, returningOf, unnestable, type Returning } from './bulk-insert';
import { applyPlanned, Planner, type Resolved } from './planner';
import { rootIdBounds } from './joins';
import { groupedQuery, isGrouped, orderRows, planColumn, plainQuery, readColumn, runRead } from './select-sql';
import type { Column } from './select-sql';
import { selectJson, type JsonRender, type JsonRow } from './json-rows';
import { isColumn } from './schema';
import { checkInLists } from './list-filters';
import type { EntityRegistry } from './registry';
import { RowAccessControl, type AccessRules } from './row-access';
import type { CompiledEntity } from './types';
import { toDb, type FieldCipher } from './values';

type Row = Record<string, unknown>;
type Planned = Awaited<ReturnType<EntityStore['plan']>>;

export class EntityStore {
  private readonly returns = new WeakMap<CompiledEntity, Returning>();
  readonly access: RowAccessControl;

  constructor(
    readonly registry: EntityRegistry,
    rules: AccessRules,
    /** Seals `encrypted` fields at rest (the host's `secretBox`); without it they are stored as given. */
    readonly cipher?: FieldCipher,
    readonly limits: Pick<Limits, 'inList' | 'rowsPerRead'> = DEFAULT_LIMITS,
  ) {
    this.access = new RowAccessControl(registry, rules);
  }

  defaultSelect(entity: CompiledEntity): string[] {
    return entity.fields.filter((f) => !f.secret && isColumn(f)).map((f) => f.name);
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
    if (principal) {
      where.push(...this.access.planRoot(planner, await this.access.answer(entity, 'view', principal)));
      if (query.joinAccess) await this.access.restrictJoins(planner, principal);
    }
    const qb = db(`${entity.table} as ${planner.rootAlias}`);
    planner.applyJoins(qb);
    for (const condition of where) applyPlanned(qb, condition);
    return { qb, columns, sort, planner };
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
   * caller that renders rows its own way, without an intermediate object per row.
   */
  async selectRows(
    db: Knex,
    entity: CompiledEntity,
    query: Query,
    principal: Principal | null,
  ): Promise<{ paths: string[]; rows: unknown[][] }> {
    const read = await this.planRead(db, entity, query, principal);
    const { planned } = read;
    const { columns } = planned;
    const qb = isGrouped(query) ? this.grouped(db, planned, query) : plainQuery(db, planned.qb, columns, planned.sort);
    // Rows as arrays in select order: the driver builds no object per row either.
    const rows = await runRead(qb.options({ rowMode: 'array' }), read.ceiling, query);
    const source = (column: Column) => planned.planner.resolve(column.aggregate!.path, 'select').field;
    for (const row of rows as unknown[][])
      for (let index = 0; index < columns.length; index++)
        row[index] = readColumn(columns[index], row[index], source, this.cipher);
    return { paths: columns.map((column) => column.path), rows: rows as unknown[][] };
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
    const read = await this.planRead(db, entity, query, principal);
    const { qb, columns, sort } = read.planned;
    const reader = selectJson(db, qb, columns, render);
    if (!reader) return null;
    const rows = (await runRead(orderRows(qb, sort).options({ rowMode: 'array' }), read.ceiling, query)) as unknown[][];
    const records = rows.map(reader);
    return records.some((row) => row.f) ? null : records;
  }

  /** The planned read and its row ceiling (see runRead); limit and offset are checked first. */
  private async planRead(db: Knex, entity: CompiledEntity, query: Query, principal: Principal | null) {
    // The API layers validate these; the store refuses them too, so no caller ever reaches knex's own error.
    for (const [name, value] of [
      ['limit', query.limit],
      ['offset', query.offset],
    ] as const) {
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
        throw new KernelError('E_INVALID_PARAMS', `${name} must be a non-negative integer`);
    }
    const planned = await this.plan(db, entity, query, principal, query.select ?? this.defaultSelect(entity));
    // A caller without `administer CRM` gets at most `rowsPerRead` rows; a read matching more is
    // refused (never cut short silently), so one more row than that is asked for.
    const ceiling = principal && !holds('administer CRM', principal.permissions) ? this.limits.rowsPerRead : 0;
    return { planned, ceiling };
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

  async insert(db: Knex, entity: CompiledEntity, values: Row): Promise<number> {
    const [row] = (await guarded(async () =>
      db(entity.table)
        .insert(toDb(entity, values, this.cipher))
        .returning('id'),
    )) as Array<{
      id: number;
    }>;
    return Number(row.id);
  }

  /** Inserts and returns the stored row as {@link byId} reads it (defaults included), from the INSERT's RETURNING. */
  async insertRow(db: Knex, entity: CompiledEntity, values: Row): Promise<Row> {
    return (await this.insertRows(db, entity, [values]))[0];
  }

  /** Many rows in one INSERT (bulk-insert.ts) … RETURNING, in order; a field a row leaves out takes its default. */
  async insertRows(db: Knex, entity: CompiledEntity, rows: Row[]): Promise<Row[]> {
    const returning = this.returning(entity);
    const data = rows.map((values) => toDb(entity, values, this.cipher));
    // Rows as arrays: the driver builds no object per returned row (a batch returns thousands).
    const stored = (await guarded(async () =>
      data.length > 1 && unnestable(data)
        ? insertUnnest(db, entity, data, returning.columns)
        : db(entity.table).insert(data).returning(returning.columns).options({ rowMode: 'array' }),
    )) as unknown[][];
    return stored.map(returning.fromArray);
  }

  async update(db: Knex, entity: CompiledEntity, id: number, values: Row): Promise<void> {
    const data = toDb(entity, values, this.cipher);
    delete data.id;
    if (Object.keys(data).length) await guarded(async () => db(entity.table).where('id', id).update(data));
  }

  /** Updates and returns the stored row as {@link byId} reads it (UPDATE … RETURNING); null when no row has this id. */
  async updateRow(db: Knex, entity: CompiledEntity, id: number, values: Row): Promise<Row | null> {
    const data = toDb(entity, values, this.cipher);
    delete data.id;
    if (!Object.keys(data).length) return this.byId(db, entity, id);
    const returning = this.returning(entity);
    const [row] = (await guarded(async () =>
      db(entity.table).where('id', id).update(data).returning(returning.columns),
    )) as Row[];
    return row ? returning.map(row) : null;
  }

  /** The RETURNING list of a write (the columns {@link byId} selects, from metadata) and its row mapping. */
  returning(entity: CompiledEntity): Returning {
    let returning = this.returns.get(entity);
    if (!returning) {
      returning = returningOf(
        this.defaultSelect(entity).map((name) => entity.byName.get(name)!),
        this.cipher,
      );
      this.returns.set(entity, returning);
    }
    return returning;
  }

  async remove(db: Knex, entity: CompiledEntity, id: number): Promise<number> {
    return guarded(async () => db(entity.table).where('id', id).del());
  }
}

/** What a grouped count selects: the read's select, or its grouped paths when it selects none. */
const groupedSelect = (query: Query) => (query.select?.length ? query.select : query.groupBy!);
