/**
 * Linked creates: new records of several entities in one statement (data-modifying CTEs), where a value may be
 * the id of an earlier record of the same call ({@link linkTo}): a contribution's line item, its financial
 * transaction and the row tying that transaction to the contribution are one round trip instead of three.
 * Each record gets the lifecycle a single create runs (defaults, beforeSave, checks, collections, afterSave
 * with its stored row). Records whose hooks may read what the others write (not `linkSafe`), or a caller row
 * access applies to, are saved one by one instead, in order, as single saves.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { saveCollections } from './collections';
import { guarded } from './db-errors';
import { rememberCreated } from './dynamic-refs';
import { Link } from './link';
import type { EntityService, EntitySession } from './service';
import type { EntityStore } from './store';
import { initialValues } from './write-values';
import type { CompiledEntity, SaveContext } from './types';
import { writable } from './entities';
import { toDb } from './values';

type Row = Record<string, unknown>;

/**
 * Records per linked statement at most: a contribution with a thousand line items is a thousand CTEs and
 * ~10,000 bound parameters (PostgreSQL takes 65,535), so beyond this they are written one by one instead.
 */
export const MAX_LINKED = 100;

/** One record of a linked create: its entity, the values to store, and the params its hooks see. */
export interface LinkedStep {
  entity: CompiledEntity;
  values: Row;
  params?: Row;
}

type Prepared = { entity: CompiledEntity; values: Row; sc: SaveContext; collections: Collections };
type Collections = Awaited<ReturnType<EntityService['readyToWrite']>>;

/** Creates the records in order; returns the stored rows (field names), in the same order. */
export async function createLinked(
  service: EntityService,
  session: EntitySession,
  steps: LinkedStep[],
): Promise<Row[]> {
  steps.forEach((step, i) => checkLinks(step.values, i));
  if (!service.isTrusted(session) || steps.length > MAX_LINKED || !steps.every((step, i) => linkable(step.entity, i)))
    return saveInTurn(service, session, steps);
  const ready: Prepared[] = [];
  for (const step of steps) ready.push(await prepare(service, session, step));
  const rows = await insertLinked(session.db, service.store, ready);
  await finish(service, session, ready, rows);
  return rows;
}

/** The records lifecycle code queued with `sc.createWith` on a create, by the create's context. */
const queued = new WeakMap<SaveContext, LinkedStep[]>();

/** `sc.createWith` (types.ts): queues records for the statement that creates the row (its link is 0). */
export function queueWith(service: EntityService, sc: SaveContext, records: Array<{ entity: string; values: Row }>) {
  const list = queued.get(sc) ?? [];
  for (const { entity, values } of records) {
    const target = service.registry.get(entity);
    list.push({ entity: target, values: writable(target, values), params: values });
  }
  queued.set(sc, list);
}

/**
 * The INSERT of a new row (values ready to write): on its own, or with the records its hooks queued in one
 * linked statement; their collections and afterSave hooks run here, the row's own in the caller. Returns the row.
 */
export async function insertNew(
  service: EntityService,
  session: EntitySession,
  entity: CompiledEntity,
  values: Row,
  sc: SaveContext,
): Promise<Row> {
  const more = queued.get(sc);
  if (!more?.length) return service.store.insertRow(session.db, entity, values);
  more.forEach((step, i) => checkLinks(step.values, i + 1));
  if (more.length >= MAX_LINKED || !more.every((step) => linkable(step.entity, 1))) {
    const row = await service.store.insertRow(session.db, entity, values);
    rememberCreated(session.db, entity.table, [Number(row.id)]);
    await writeQueued(service, session, sc, Number(row.id));
    return row;
  }
  queued.delete(sc);
  // Lifecycle code queued them: trusted, as its `sc.entities` is (the row itself was checked by the caller).
  const trusted = { ...session, trusted: true };
  const ready: Prepared[] = [{ entity, values, sc, collections: new Map() }];
  for (const step of more) ready.push(await prepare(service, trusted, step));
  const rows = await insertLinked(session.db, service.store, ready);
  await finish(service, trusted, ready.slice(1), rows.slice(1));
  return rows[0];
}

/**
 * Records a hook queued on a create that was written without them (a row of a batch, a record of a linked
 * create): written now, in one statement after it, with link 0 standing for its id.
 */
export async function writeQueued(service: EntityService, session: EntitySession, sc: SaveContext, id: number) {
  const more = queued.get(sc);
  if (!more?.length) return;
  queued.delete(sc);
  const shift = (value: unknown) => (value instanceof Link ? (value.step ? new Link(value.step - 1) : id) : value);
  const steps = more.map((step) => ({
    ...step,
    values: Object.fromEntries(Object.entries(step.values).map(([name, value]) => [name, shift(value)])),
  }));
  await createLinked(service, { ...session, trusted: true }, steps);
}

/** A record's lifecycle up to the write: defaults, beforeSave, the checks of a single create. */
async function prepare(service: EntityService, session: EntitySession, step: LinkedStep): Promise<Prepared> {
  let values = initialValues(step.entity, step.values, null);
  // One context per record, the same before and after the write (taps keep per-save state by it).
  const sc = service.saveContext(session, step.params ?? step.values, null);
  for (const lifecycle of step.entity.lifecycle) values = (await lifecycle.beforeSave?.(values, sc)) ?? values;
  const collections = await service.readyToWrite(session, step.entity, values, null);
  return { entity: step.entity, values, sc, collections };
}

/** After the statement: rows made known to the transaction, collections, then each record's afterSave. */
async function finish(service: EntityService, session: EntitySession, ready: Prepared[], rows: Row[]): Promise<void> {
  for (const [i, { entity, collections, sc }] of ready.entries()) {
    rememberCreated(session.db, entity.table, [Number(rows[i].id)]);
    if (collections.size) await saveCollections(session.db, service.registry, Number(rows[i].id), collections);
    await writeQueued(service, session, sc, Number(rows[i].id));
  }
  // afterSave once every record is in (a single save's hooks run before the next record is written).
  for (const [i, { entity, sc }] of ready.entries())
    for (const lifecycle of entity.lifecycle) await lifecycle.afterSave?.({ ...rows[i] }, sc);
}

/**
 * Whether record `i` may share the statement: no hook of its entity reads what the others write (`linkSafe`),
 * or only a beforeSave of the first record, which has nothing written before it.
 */
function linkable(entity: CompiledEntity, i: number): boolean {
  return entity.lifecycle.every((l) => l.linkSafe || ((i === 0 || !l.beforeSave) && !l.afterSave));
}

function checkLinks(values: Row, step: number): void {
  for (const value of Object.values(values))
    if (value instanceof Link && (value.step < 0 || value.step >= step))
      throw new KernelError(
        'E_INTERNAL',
        `a linked create's record ${step} links to record ${value.step}: only earlier ones`,
      );
}

/** Row access applies: each record through the single save, which checks it with the ids filled in. */
async function saveInTurn(service: EntityService, session: EntitySession, steps: LinkedStep[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const step of steps) {
    const values: Row = {};
    for (const [name, value] of Object.entries(step.values))
      values[name] = value instanceof Link ? rows[value.step].id : value;
    rows.push(await service.save(session, step.entity, values, { params: step.params ?? values }));
  }
  return rows;
}

/**
 * `with s0 as (insert … returning …), s1 as (insert … values (…, (select s0_id from s0), …) returning …) select *
 * from s0, s1`: a linked value is a scalar subquery on an earlier CTE, the others bound parameters (typed by
 * their column, as in a plain VALUES list); each CTE returns its one row under prefixed names, so the final
 * select is one row holding every record. PostgreSQL checks foreign keys at the end of the statement.
 */
async function insertLinked(db: Knex, store: EntityStore, steps: Array<{ entity: CompiledEntity; values: Row }>) {
  const ctes: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  const returned = steps.map(({ entity }) => store.returning(entity));
  for (const [i, { entity, values }] of steps.entries()) {
    const plain: Row = {};
    const linked: Array<[string, number]> = [];
    for (const [name, value] of Object.entries(values))
      if (value instanceof Link) linked.push([columnOf(entity, name), value.step]);
      else plain[name] = value;
    const data = toDb(entity, plain, store.cipher);
    const columns = [...Object.keys(data), ...linked.map(([column]) => column)];
    const row = [
      ...Object.keys(data).map(() => '?'),
      ...linked.map(([, step]) => `(select s${step}_id from s${step})`),
    ];
    const returning = [`id as s${i}_id`, ...returned[i].columns.map((_, k) => `?? as s${i}_${k}`)].join(', ');
    bindings.push(entity.table, ...columns, ...(Object.values(data) as Knex.RawBinding[]), ...returned[i].columns);
    ctes.push(
      columns.length
        ? `s${i} as (insert into ?? (${columns.map(() => '??').join(', ')}) values (${row.join(', ')}) returning ${returning})`
        : `s${i} as (insert into ?? default values returning ${returning})`,
    );
  }
  const sql = `with ${ctes.join(', ')} select * from ${steps.map((_, i) => `s${i}`).join(', ')}`;
  const [all] = ((await guarded(async () => db.raw(sql, bindings))) as { rows: Row[] }).rows;
  return returned.map(({ columns, map }, i) =>
    map(Object.fromEntries(columns.map((column, k) => [column, all[`s${i}_${k}`]]))),
  );
}
function columnOf(entity: CompiledEntity, name: string): string {
  const field = entity.byName.get(name);
  if (!field || field.related || field.labelOf || field.via || field.collection)
    throw new KernelError('E_INTERNAL', `${entity.name}.${name} is not a stored column: it cannot take a linked id`);
  return field.column ?? field.name;
}
