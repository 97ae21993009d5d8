/**
 * The entity service: read, count, save (create/update) and delete, written once over entity metadata, with
 * the lifecycle hooks (beforeGet, beforeSave, afterSave, beforeDelete, afterDelete). The APIv3 and APIv4
 * generic actions are translators in front of it (wire params → service call → wire shape); lifecycle code
 * reaches other entities through {@link Entities} (`sc.entities`), in the same transaction, trusted.
 */
import { KernelError, type Api, type Principal } from '../../kernel';
import { sqlDuring } from '../../host';
import type { EntityRegistry } from './registry';
import type { Condition, Query } from './conditions';
import type { EntityStore } from './store';
import type { JsonRender, JsonRow } from './json-rows';
import type { CompiledEntity, SaveContext } from './types';
import { changesTable, initialValues, mandatory, shapeOf, structuresAsText } from './write-values';

export { initialValues } from './write-values';
import { bindEntities, type Entities } from './entities';
import { cascadeDynamicReferences, checkDynamicReferences, rememberCreated } from './dynamic-refs';
import { saveCollections, takeCollections } from './collections';
import { createMany } from './save-many';
import { insertNew, queueWith } from './save-linked';
import { present, type BatchOptions, type EntitySession, type SaveErrors, type SaveOptions } from './session';

type Row = Record<string, unknown>;

export { present, type EntitySession, type SaveErrors, type SaveOptions, type BatchOptions } from './session';

export class EntityService {
  /** @param api the kernel's `api` service, for join permissions (not resolved through a request's scope). */
  constructor(
    readonly registry: EntityRegistry,
    readonly store: EntityStore,
    private readonly api: Api,
  ) {}

  /** Whether the session skips row access and join checks (the one trust flag). */
  isTrusted(session: Pick<EntitySession, 'principal' | 'trusted'>): boolean {
    return !!session.trusted;
  }

  /** The principal row access applies to: none for trusted code. */
  private viewer(session: EntitySession): Principal | null {
    return this.isTrusted(session) ? null : session.principal;
  }

  /** The entity's beforeGet taps: adjusted params and the extra conditions they add. */
  beforeGet(
    entity: CompiledEntity,
    params: Row,
    session: Pick<EntitySession, 'principal' | 'trusted' | 'api'>,
  ): { params: Row; where: Condition[] } {
    let current = params;
    const where: Condition[] = [];
    const ctx = { principal: session.principal, trusted: this.isTrusted(session), api: session.api };
    for (const lifecycle of entity.lifecycle) {
      const result = lifecycle.beforeGet?.(current, ctx);
      if (result?.params) current = result.params;
      if (result?.where) where.push(...result.where);
    }
    return { params: current, where };
  }

  /** Rows (field names or paths as selected), row access applied to the root and, with joinAccess, to joins. */
  get(session: EntitySession, entity: CompiledEntity, query: Query): Promise<Row[]> {
    return this.store.select(session.db, entity, query, this.viewer(session));
  }

  /** As {@link get}, each row an array in the order of `paths` (APIv3 renders its own objects from them). */
  getRows(
    session: EntitySession,
    entity: CompiledEntity,
    query: Query,
  ): Promise<{ paths: string[]; rows: unknown[][] }> {
    return this.store.selectRows(session.db, entity, query, this.viewer(session));
  }

  /** As {@link getRows}, each row rendered as JSON by PostgreSQL; null when the read cannot be (json-rows.ts). */
  getJson(session: EntitySession, entity: CompiledEntity, query: Query, render: JsonRender): Promise<JsonRow[] | null> {
    return this.store.selectJson(session.db, entity, query, this.viewer(session), render);
  }

  count(session: EntitySession, entity: CompiledEntity, query: Query): Promise<number> {
    return this.store.count(session.db, entity, query, this.viewer(session));
  }

  /** The stored row by id, without access checks (the write paths check access themselves). */
  byId(session: EntitySession, entity: CompiledEntity, id: number): Promise<Row | null> {
    return this.store.byId(session.db, entity, id);
  }

  /**
   * Joining onto another entity needs `get` on it: the entities each dotted path crosses, checked once each.
   * `denied(entity, prefix, path)` words the refusal for the calling API.
   */
  async checkJoins(
    session: EntitySession,
    root: CompiledEntity,
    paths: string[],
    version: 3 | 4,
    denied: (entity: string, prefix: string, path: string) => Error,
  ): Promise<void> {
    if (this.isTrusted(session) || !paths.some((path) => path.includes('.'))) return;
    const checked = new Set<string>([root.name]);
    for (const path of paths) {
      const parts = path.split('.');
      let current = root;
      for (let i = 0; i < parts.length - 1 && i < 4; i++) {
        const field = current.lookup.get(parts[i]);
        const next = field?.fk ? this.registry.find(field.fk) : undefined;
        if (!next) break; // the store reports unknown paths
        if (!checked.has(next.name)) {
          const allowed = await this.api.can(next.name, 'get', session.principal, { version });
          if (!allowed) throw denied(next.name, parts.slice(0, i + 1).join('.'), path);
          checked.add(next.name);
        }
        current = next;
      }
    }
  }

  /** The lifecycle context of a write: the other entities through this service, trusted, same transaction. */
  saveContext(session: EntitySession, params: Row, existing: Row | null, entities?: Entities): SaveContext {
    entities ??= this.bind({ ...session, trusted: true });
    const sc: SaveContext = { db: session.db, principal: session.principal, params, existing, entities };
    if (!existing) sc.createWith = (records) => queueWith(this, sc, records);
    return sc;
  }

  /**
   * Create (no existing row) or update: defaults → beforeSave → mandatory check → row access → INSERT/UPDATE …
   * RETURNING → afterSave. Returns the stored row (field names).
   */
  async save(session: EntitySession, entity: CompiledEntity, input: Row, options: SaveOptions = {}): Promise<Row> {
    const existing = options.existing ?? null;
    let values = initialValues(entity, input, existing);
    const sc = this.saveContext(session, options.params ?? input, existing);
    for (const lifecycle of entity.lifecycle) {
      const changed = await lifecycle.beforeSave?.(values, sc);
      if (changed) values = changed;
    }
    const collections = await this.readyToWrite(session, entity, values, existing, options.errors);
    const row = existing
      ? (await this.store.updateRow(session.db, entity, Number(existing.id), values))!
      : await insertNew(this, session, entity, values, sc);
    if (!existing) rememberCreated(session.db, entity.table, [Number(row.id)]);
    await saveCollections(session.db, this.registry, Number(row.id), collections);
    if (!entity.lifecycle.some((l) => l.afterSave)) return row;
    // The write's RETURNING gives the stored row; it is read again only if an afterSave hook updated its table.
    const sent = await sqlDuring(session.db, async () => {
      for (const lifecycle of entity.lifecycle) await lifecycle.afterSave?.({ ...row }, sc);
    });
    return changesTable(sent, entity.table) && options.reread !== false
      ? (await this.byId(session, entity, Number(row.id)))!
      : row;
  }

  /** Creates many records of one entity in a few statements, with the same lifecycle as {@link save}. */
  saveMany(session: EntitySession, entity: CompiledEntity, inputs: Row[], options: BatchOptions = {}): Promise<Row[]> {
    return createMany(this, session, entity, inputs, options);
  }

  /**
   * The checks between the lifecycle's beforeSave and the write: collections taken out, structures as JSON
   * text, dynamic references, mandatory fields (create) and row access. Returns the collections to save.
   */
  async readyToWrite(
    session: EntitySession,
    entity: CompiledEntity,
    values: Row,
    existing: Row | null,
    errors?: SaveErrors,
    /** A batch found every create allowed ({@link allCreatesAllowed}): no row is asked again. */
    createsAllowed = false,
  ): Promise<ReturnType<typeof takeCollections>> {
    const collections = takeCollections(entity, values);
    structuresAsText(entity, values);
    if (shapeOf(entity).dynamic.length)
      await checkDynamicReferences(session.db, this.registry, entity, values, { ...existing, ...values });
    if (!existing) {
      const missing = shapeOf(entity)
        .required.filter((f) => !present(values[f.name]))
        .map((f) => f.name);
      if (missing.length) throw errors?.mandatory?.(missing, entity) ?? mandatory(missing, entity);
    }
    if (existing) {
      await this.checkWrite(session, entity, 'edit', { id: Number(existing.id) }, errors);
      // An update may not move a row out of what the caller may edit (an email to another contact).
      const viewer = this.viewer(session);
      if (viewer && (await this.store.access.touches(entity, values, viewer)))
        await this.checkWrite(session, entity, 'edit', { proposed: { ...existing, ...values } }, errors);
    } else if (!createsAllowed) await this.checkWrite(session, entity, 'create', { proposed: values }, errors);
    return collections;
  }

  /** Whether this session may create any row of `entity` (trusted, or row access answers `all`): asked once a batch. */
  async allCreatesAllowed(session: EntitySession, entity: CompiledEntity): Promise<boolean> {
    const viewer = this.viewer(session);
    return !viewer || (await this.store.access.answer(entity, 'create', viewer)) === 'all';
  }

  /**
   * Delete one stored row: row access → beforeDelete (a tap may do the delete itself, e.g. Contact's trash)
   * → DELETE → afterDelete (also after a handled delete). Access comes first so a handling tap is covered too.
   */
  async delete(session: EntitySession, entity: CompiledEntity, row: Row, options: SaveOptions = {}): Promise<void> {
    await this.checkWrite(session, entity, 'delete', { id: Number(row.id) }, options.errors);
    const sc = this.saveContext(session, options.params ?? { id: row.id }, row);
    let handled = false;
    for (const lifecycle of entity.lifecycle)
      if ((await lifecycle.beforeDelete?.(row, sc)) === 'handled') {
        handled = true;
        break;
      }
    if (!handled) {
      await this.store.remove(session.db, entity, Number(row.id));
      await cascadeDynamicReferences(this.bind({ ...session, trusted: true }), this.registry, entity, Number(row.id));
    }
    for (const lifecycle of entity.lifecycle) await lifecycle.afterDelete?.(row, sc);
  }

  /**
   * Row access for a write, on a stored row (`{id}`) or the row a write proposes (`{proposed}`: values by
   * field name); the translator words the refusal.
   */
  async checkWrite(
    session: EntitySession,
    entity: CompiledEntity,
    operation: 'edit' | 'delete' | 'create',
    row: { id: number } | { proposed: Row },
    errors?: SaveErrors,
  ): Promise<void> {
    const viewer = this.viewer(session);
    if (!viewer) return;
    try {
      await this.store.access.check(session.db, entity, operation, row, viewer);
    } catch (err) {
      if (errors?.access && err instanceof KernelError && err.code === 'E_FORBIDDEN') throw errors.access();
      throw err;
    }
  }

  /** The service bound to a session (lifecycle code's `sc.entities`, in-process callers). */
  bind(session: EntitySession): Entities {
    return bindEntities(this, session);
  }
}
