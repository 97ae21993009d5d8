/**
 * What every generic APIv4 action shares: the service session, where/orderBy with their option suffixes,
 * join permission checks, and rows in APIv4's JSON types. `get`, the read every other action builds on, is
 * reads.ts.
 */
import { KernelError, type ActionContext } from '../../kernel';
import type { CompiledEntity, EntityRegistry, EntityService, EntitySession, FieldDef, Query } from '../entity-core';
import { type Condition } from '../entity-core';
import { optionsOf, orderOfValues, translateFilter } from './suffixes';
import { mayRead, mentions, parseOrderBy, parseWhere, v4Fields, type WhereContext } from './params';
import type { Row } from './types';
import { typed } from './rows';

export type Params = Record<string, unknown>;

/** Who reads: the principal, and whether the call is trusted (secrets readable). */
export type Reader = Pick<ActionContext, 'principal' | 'trusted'>;

export class Api4Base {
  constructor(
    protected registry: EntityRegistry,
    protected service: EntityService,
  ) {}

  protected session(ctx: ActionContext): EntitySession {
    return { db: ctx.db, principal: ctx.principal, scope: ctx.scope, trusted: ctx.trusted };
  }

  protected wc(e: CompiledEntity, ctx: ActionContext): WhereContext {
    return { registry: this.registry, entity: e, principal: ctx.principal, trusted: ctx.trusted, paths: [] };
  }

  /**
   * Conditions of a read or write: `where`, the conditions the entity's `beforeGet` taps add (e.g. only
   * the caller's session's tokens), then the entity's get defaults (Contact's `is_deleted`).
   */
  protected async where(
    e: CompiledEntity,
    where: unknown,
    wc: WhereContext,
    db: ActionContext['db'],
    applyDefaults = true,
    params: Params = {},
  ): Promise<Condition[]> {
    const conds = parseWhere(wc, where);
    await this.translateSuffixes(wc, db);
    conds.push(...this.service.beforeGet(e, params, { principal: wc.principal, trusted: wc.trusted }).where);
    if (applyDefaults) {
      for (const f of v4Fields(e))
        if (f.getDefault !== undefined && !mentions(conds, f.name))
          conds.push({ path: f.name, op: '=', value: f.getDefault });
    }
    return conds;
  }

  /** Filters on `field:name` / `field:label` become filters on the stored values. */
  protected async translateSuffixes(wc: WhereContext, db: ActionContext['db']): Promise<void> {
    for (const { filter, suffix, field, path } of wc.suffixed ?? [])
      await translateFilter(filter, suffix, await optionsOf(this.registry, db, field, path), field);
    wc.suffixed = [];
  }

  /** orderBy on `field:label`: the stored values in the order of their option text. */
  protected async sortOf(wc: WhereContext, orderBy: unknown, db: ActionContext['db']): Promise<Query['sort']> {
    const sort = [];
    for (const item of parseOrderBy(wc, orderBy)) {
      if (!item.suffix) sort.push({ path: item.path, dir: item.dir });
      else {
        const options = await optionsOf(this.registry, db, item.suffix.field, item.suffix.path);
        sort.push({ path: item.path, dir: item.dir, byValues: orderOfValues(options, item.suffix.suffix) });
      }
    }
    return sort;
  }

  /** Joining onto another entity needs `get` on it too (as APIv3's joins). */
  protected async checkJoins(wc: WhereContext, ctx: ActionContext): Promise<void> {
    await this.service.checkJoins(
      this.session(ctx),
      wc.entity,
      wc.paths.map((r) => r.path),
      4,
      (entity, _prefix, path) =>
        new KernelError('E_FORBIDDEN', `Authorization failed: cannot join onto ${entity} in ${path}`, {
          details: { acl: true },
        }),
    );
  }

  /** A stored row as APIv4 shows it: JSON types, secrets only for those allowed. */
  out(fieldsByPath: Map<string, FieldDef>, row: Row, ctx: Reader): Row {
    const rec: Row = {};
    // for…in, not Object.entries: no pair array per value (a batch answer shows thousands of rows).
    for (const path in row) {
      const f = fieldsByPath.get(path);
      if (!f || !mayRead(f, ctx.principal, ctx.trusted)) continue;
      rec[path] = typed(f, row[path]);
    }
    return rec;
  }

  protected allFields(e: CompiledEntity, ctx: Reader): Map<string, FieldDef> {
    return new Map(
      v4Fields(e)
        // Collections (an activity's contacts, a contact's groups) are read when named, not with `*`.
        .filter((f) => !f.collection && !f.related && mayRead(f, ctx.principal, ctx.trusted))
        .map((f) => [f.name, f]),
    );
  }

  /** A written record as returned by create/update/save: secrets are never echoed, to anyone. */
  protected async readById(e: CompiledEntity, id: number, ctx: ActionContext): Promise<Row> {
    return (await this.readByIds(e, [id], ctx))[0];
  }

  /** Written records in the order of `ids` (one query for a batch). */
  protected async readByIds(e: CompiledEntity, ids: number[], ctx: ActionContext): Promise<Row[]> {
    const query = {
      where: [{ path: 'id', op: 'IN' as const, value: ids }],
      select: [...this.answerFields(e, ctx).keys()],
    };
    const byId = new Map((await this.service.store.select(ctx.db, e, query, null)).map((row) => [Number(row.id), row]));
    return this.shown(
      e,
      ids.map((id) => byId.get(id) ?? { id }),
      ctx,
    );
  }

  /** Stored rows (a batch write's, which reads them back as {@link readByIds} would) as that answer shows them. */
  protected shown(e: CompiledEntity, rows: Row[], ctx: Reader): Row[] {
    const fields = this.answerFields(e, ctx);
    return rows.map((row) => this.out(fields, row, ctx));
  }

  /** The fields a write's answer shows: every readable one but secrets, which are never echoed. */
  private answerFields(e: CompiledEntity, ctx: Reader): Map<string, FieldDef> {
    return new Map([...this.allFields(e, ctx)].filter(([, f]) => !f.secret));
  }
}
