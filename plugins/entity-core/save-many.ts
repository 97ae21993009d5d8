/**
 * Batches of creates: N new records of one entity in a few statements (multi-row INSERT … RETURNING), with
 * the lifecycle a single save runs — a tap's batched hooks (beforeSaveMany/afterSaveMany) when it has them,
 * its per-row hooks row by row otherwise — in the caller's transaction, so a batch is all in or all out.
 */
import { sqlDuring } from '../../host';
import { saveCollections } from './collections';
import { rememberCreated } from './dynamic-refs';
import { writeQueued } from './save-linked';
import type { EntityService, BatchOptions, EntitySession } from './service';
import { initialValues } from './service';
import { changesTable } from './write-values';
import { groupByColumns } from './bulk-insert';
import type { BatchSaveContext, CompiledEntity } from './types';

type Row = Record<string, unknown>;

/** Bound parameters per INSERT stay far below PostgreSQL's 65,535; rows per statement at most 1,000. */
const PARAMS_PER_STATEMENT = 30_000;
const ROWS_PER_STATEMENT = 1_000;

export async function createMany(
  service: EntityService,
  session: EntitySession,
  entity: CompiledEntity,
  inputs: Row[],
  options: BatchOptions,
): Promise<Row[]> {
  if (!inputs.length) return [];
  const params = options.params ?? inputs;
  let rows = inputs.map((input) => initialValues(entity, input, null));
  // One context per row, the same object before and after the write (taps may keep per-save state by it);
  // the entities API they carry holds no state, so the batch shares one.
  const entities = service.bind({ ...session, trusted: true });
  const contexts = params.map((given) => service.saveContext(session, given, null, entities));
  const batch: BatchSaveContext = { db: session.db, principal: session.principal, params, entities };
  for (const lifecycle of entity.lifecycle) {
    if (lifecycle.beforeSaveMany) rows = (await lifecycle.beforeSaveMany(rows, batch)) ?? rows;
    else if (lifecycle.beforeSave)
      for (let i = 0; i < rows.length; i++) rows[i] = (await lifecycle.beforeSave(rows[i], contexts[i])) ?? rows[i];
  }
  const collections = [];
  const allowed = await service.allCreatesAllowed(session, entity);
  for (const row of rows)
    collections.push(await service.readyToWrite(session, entity, row, null, options.errors, allowed));
  const stored: Row[] = [];
  const columns = new Set([...groupByColumns(rows).keys()].flatMap((key) => (key ? key.split(',') : []))).size;
  const size = Math.max(1, Math.min(ROWS_PER_STATEMENT, Math.floor(PARAMS_PER_STATEMENT / Math.max(1, columns))));
  for (let start = 0; start < rows.length; start += size)
    stored.push(...(await service.store.insertRows(session.db, entity, rows.slice(start, start + size))));
  rememberCreated(
    session.db,
    entity.table,
    stored.map((row) => Number(row.id)),
  );
  for (let i = 0; i < stored.length; i++) {
    const id = Number(stored[i].id);
    if (collections[i].size) await saveCollections(session.db, service.registry, id, collections[i]);
    // What a hook queued with sc.createWith (a contribution's ledger): after its row, one statement each.
    await writeQueued(service, session, contexts[i], id);
  }
  if (!entity.lifecycle.some((l) => l.afterSave || l.afterSaveMany)) return stored;
  const sent = await sqlDuring(session.db, async () => {
    for (const lifecycle of entity.lifecycle) {
      if (lifecycle.afterSaveMany)
        await lifecycle.afterSaveMany(
          stored.map((row) => ({ ...row })),
          batch,
        );
      else if (lifecycle.afterSave)
        for (let i = 0; i < stored.length; i++) await lifecycle.afterSave({ ...stored[i] }, contexts[i]);
    }
  });
  if (!changesTable(sent, entity.table)) return stored;
  // An afterSave hook changed something: the rows as stored now, in the batch's order.
  const ids = stored.map((row) => Number(row.id));
  const again = await service.store.select(session.db, entity, { where: [{ path: 'id', op: 'IN', value: ids }] }, null);
  const byId = new Map(again.map((row) => [Number(row.id), row]));
  return ids.map((id, i) => byId.get(id) ?? stored[i]);
}
