/**
 * One batch of an import, one transaction: the rows mapped to records (rows that cannot be are refused before any
 * look-up), then written whole in a savepoint; if the database refuses that, written again row by row (each in its
 * own savepoint) so only the rows at fault are rejected; then the job moved on in the same transaction.
 */
import type { Knex } from 'knex';
import { writeBatch, type BatchRules, type Outcome } from './batch';
import type { CsvRecord } from './csv-source';
import type { ImportDeps } from './importer';
import { advanceJob, type JobRow } from './job';
import type { Mapping } from './mapping';
import { isLockTimeout, YieldToEarlier, type BatchClaim } from './pipeline';
import { toRecord, type ImportRecord } from './records';

export interface PreparedBatch {
  rows: CsvRecord[];
  records: ImportRecord[];
  /** Rows refused before any look-up (ragged, an invalid email…). */
  refused: Map<number, Outcome>;
}

export function prepareBatch(rows: CsvRecord[], header: string[], mapping: Mapping): PreparedBatch {
  const refused = new Map<number, Outcome>();
  const records: ImportRecord[] = [];
  for (const row of rows) {
    const record = toRecord(row.row, row.cells, header, mapping);
    if (typeof record === 'string') refused.set(row.row, { row: row.row, result: 'rejected', reason: record });
    else records.push(record);
  }
  return { rows, records, refused };
}

/** One batch of an import to write: its rows, the rules, its claim in the pipeline, and the job it moves on. */
export interface BatchRun {
  deps: ImportDeps;
  job: JobRow;
  batchNo: number;
  batch: PreparedBatch;
  rules: BatchRules;
  claim: BatchClaim;
  beforeCommit?: (batch: number) => void | Promise<void>;
}

/**
 * The batch written and committed, after the batch before it (pipeline.ts): the job's last batch is the last
 * committed. A batch asked to yield to the batch before it (their locks crossed) is rolled back and written again
 * once that one has committed.
 */
export async function commitBatch(run: BatchRun): Promise<Outcome[]> {
  const attempt = () => run.deps.db.transaction((trx) => writeAndAdvance(run, trx));
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof YieldToEarlier)) throw err;
    await run.claim.afterYield();
    return await attempt();
  } finally {
    run.claim.ended();
  }
}

async function writeAndAdvance(
  { deps, job, batchNo, batch, rules, claim, beforeCommit }: BatchRun,
  trx: Knex.Transaction,
): Promise<Outcome[]> {
  const bind = (db: Knex) => deps.service.bind({ db, principal: deps.principal, trusted: true });
  const writeWhole = () => trx.transaction((sp) => writeBatch(sp, bind(sp), batch.records, rules));
  await claim.begin(trx);
  const outcomes = new Map(batch.refused);
  let written: Outcome[] | undefined;
  // A request to yield (pipeline.ts) always ends the attempt: written again whole once the earlier batch commits,
  // never row by row (each row would wait on its own).
  const unlessYield = (err: unknown) => {
    if (err instanceof YieldToEarlier) throw err;
    return undefined;
  };
  try {
    written = await writeWhole();
  } catch (err) {
    unlessYield(err);
    if (isLockTimeout(err)) {
      await claim.contended(trx);
      written = await writeWhole().catch(unlessYield);
    }
  }
  if (written) for (const outcome of written) outcomes.set(outcome.row, outcome);
  else {
    // Row by row, a row's locks are held while the next is written: the earlier batch commits first.
    await claim.afterEarlier();
    for (const record of batch.records) {
      try {
        const [outcome] = await trx.transaction((sp) => writeBatch(sp, bind(sp), [record], rules));
        outcomes.set(record.row, outcome);
      } catch (err) {
        outcomes.set(record.row, { row: record.row, result: 'rejected', reason: rejectionReason(err) });
      }
    }
  }
  const ordered = batch.rows.map((row) => outcomes.get(row.row)!);
  await claim.afterEarlier();
  await advanceJob(trx, job, batchNo, ordered);
  await beforeCommit?.(batchNo);
  return ordered;
}

/** Why the database refused a row: a unique key's clash names its column(s) ("external_identifier already exists"). */
function rejectionReason(err: unknown): string {
  const { message, details } = err as { message: string; details?: { error_code?: string; field?: string } };
  return details?.error_code === 'already exists' && details.field ? `${details.field} already exists` : message;
}
