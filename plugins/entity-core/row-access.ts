/**
 * Row access as SQL conditions: the `entity.access` answers of every rule, AND-ed, applied to the root of a
 * read, to the entities its joins reach, and checked against the row a write touches or proposes.
 */
import type { Knex } from 'knex';
import { KernelError, type Principal } from '../../kernel';
import type { RowAccess, RowAccessQuery, RowOperation } from './hooks';
import { applyPlanned, Planner, type Planned } from './planner';
import type { EntityRegistry } from './registry';
import type { CompiledEntity } from './types';
import { guarded } from './db-errors';
import { toDb } from './values';
import { conditionPaths, type Condition } from './conditions';

export type AccessRules = (query: RowAccessQuery) => Promise<RowAccess[]>;

/** Every answer must hold: 'none' wins, conditions add up, 'all' adds nothing. */
export function allOf(answers: RowAccess[]): RowAccess {
  if (answers.includes('none')) return 'none';
  const where = answers.flatMap((answer) => (typeof answer === 'object' ? answer.where : []));
  return where.length ? { where } : 'all';
}

/** The `entity.access` answers (AND-ed) widened by the `entity.accessGrants` answers (OR-ed). */
export function withGrants(rules: RowAccess[], grants: RowAccess[]): RowAccess {
  const base = allOf(rules);
  if (base === 'all' || grants.includes('all')) return 'all';
  const extra = grants.filter((grant): grant is { where: Condition[] } => typeof grant === 'object');
  if (!extra.length) return base;
  const alternatives: Condition[] = extra.map((grant) => ({ and: grant.where }));
  if (base !== 'none') alternatives.unshift({ and: base.where });
  return { where: [{ or: alternatives }] };
}

export function refused(): KernelError {
  return new KernelError('E_FORBIDDEN', 'Permission denied to modify contact record', {
    details: { error_code: 'unauthorized' },
  });
}

export class RowAccessControl {
  constructor(
    private readonly registry: EntityRegistry,
    private readonly rules: AccessRules,
  ) {}

  async answer(entity: CompiledEntity, operation: RowOperation, principal: Principal): Promise<RowAccess> {
    return allOf(await this.rules({ entity: entity.name, ownerField: entity.ownerField, operation, principal }));
  }

  /** The root's access as planned conditions of a query (none matches nothing), planned before its joins apply. */
  planRoot(planner: Planner, access: RowAccess): Planned[] {
    if (access === 'all') return [];
    if (access === 'none') return [{ kind: 'or', items: [] }];
    return access.where.map((item) => planner.plan(item));
  }

  /** Restricts each entity the query joins to the rows the principal may view; answers each entity's access, in order. */
  async restrictJoins(planner: Planner, principal: Principal): Promise<Array<[CompiledEntity, RowAccess]>> {
    const answers: Array<[CompiledEntity, RowAccess]> = [];
    for (const join of [...planner.joins.values()]) {
      const access = await this.answer(join.entity, 'view', principal);
      answers.push([join.entity, access]);
      if (access !== 'all') planner.restrictJoin(join, access === 'none' ? 'none' : access.where);
    }
    return answers;
  }

  /**
   * Throws `unauthorized` unless the row may be written: a stored row (`id`) is tested in its table, a
   * proposed one (values about to be inserted, or an update's result) as a row of the table's type, so the
   * same conditions (joins and EXISTS included) decide before anything is written.
   */
  async check(
    db: Knex,
    entity: CompiledEntity,
    operation: Exclude<RowOperation, 'view'>,
    row: { id: number } | { proposed: Record<string, unknown> },
    principal: Principal,
  ): Promise<void> {
    const access = await this.answer(entity, operation, principal);
    if (access === 'all') return;
    if (access === 'none' || !(await this.matches(db, entity, access.where, row))) throw refused();
  }

  /** Whether an update's values touch a field the write conditions test (then the result is checked too). */
  async touches(entity: CompiledEntity, values: Record<string, unknown>, principal: Principal): Promise<boolean> {
    const access = await this.answer(entity, 'edit', principal);
    if (access === 'all' || access === 'none') return false;
    const fields = new Set(access.where.flatMap(conditionPaths).map((path) => path.split('.')[0]));
    return Object.keys(values).some((name) => fields.has(name));
  }

  private async matches(
    db: Knex,
    entity: CompiledEntity,
    where: Condition[],
    row: { id: number } | { proposed: Record<string, unknown> },
  ): Promise<boolean> {
    const planner = new Planner(this.registry, entity);
    const planned = where.map((item) => planner.plan(item));
    const alias = planner.rootAlias;
    const qb: Knex.QueryBuilder =
      'id' in row
        ? db(`${entity.table} as ${alias}`).where(`${alias}.id`, row.id)
        : db.from(
            db.raw('jsonb_populate_record(null::??, ?::jsonb) as ??', [
              entity.table,
              JSON.stringify(toDb(entity, row.proposed)),
              alias,
            ]),
          );
    planner.applyJoins(qb);
    for (const item of planned) applyPlanned(qb, item);
    const found = await guarded(async () => qb.select(`${alias}.id`).limit(1));
    return found.length > 0;
  }
}

/**
 * Row access of a record with a dynamic reference (`entity_table` + `entity_id`: Note, EntityTag) that follows
 * the referenced record's: a row pointing at one of the `tables` is allowed when the caller may do `operation` on
 * the referenced row (`{exists}` over that entity with its own conditions); rows pointing at other tables are
 * left to other rules. `tables` maps each entity to the table name stored in `entity_table`.
 */
export async function referencedRowAccess(
  control: RowAccessControl,
  registry: EntityRegistry,
  principal: Principal,
  operation: RowOperation,
  ref: { tableField: string; idField: string; tables: Record<string, string> },
): Promise<RowAccess> {
  const restricted: string[] = [];
  const allowed: Condition[] = [];
  for (const [name, table] of Object.entries(ref.tables)) {
    const target = registry.find(name);
    if (!target) continue;
    const access = await control.answer(target, operation, principal);
    if (access === 'all') continue;
    restricted.push(table);
    if (access === 'none') continue;
    const exists: Condition = { exists: { entity: name, field: 'id', ref: ref.idField, where: access.where } };
    allowed.push({ and: [{ path: ref.tableField, op: '=', value: table }, exists] });
  }
  if (!restricted.length) return 'all';
  return { where: [{ or: [{ path: ref.tableField, op: 'NOT IN', value: restricted }, ...allowed] }] };
}
