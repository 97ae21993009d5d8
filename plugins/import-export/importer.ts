/**
 * An import from start to summary: the file checked whole first (encoding, record size, quoting — nothing
 * written when it fails), the mapping resolved and refused when it names unknown fields, then batches of
 * `batchSize` rows, each one transaction that also moves the job row on, so a crash loses at most the
 * batch in flight and `resume` goes on after the last committed one.
 */
import { statSync } from 'node:fs';
import type { Knex } from 'knex';
import { KernelError, type Principal } from '../../kernel';
import type { EntityRegistry, EntityService } from '../entity-core';
import type { Outcome, Rule } from './batch';
import { commitBatch, prepareBatch } from './commit';
import { csvRecords, type CsvOptions, type CsvRecord } from './csv-source';
import { ErrorFile } from './error-file';
import { findJob, finishJob, startJob, type JobRow } from './job';
import { loadLookups, type MatchOn } from './lookups';
import { BatchClaim, type Pipeline } from './pipeline';
import {
  catalogue,
  checkMapping,
  describeMapping,
  givenMapping,
  guessedMapping,
  type Mapping,
  type Target,
} from './mapping';

export interface ImportRequest {
  input: { path: string } | { text: string };
  map?: Record<string, unknown>;
  rule: Rule;
  on: MatchOn;
  batchSize: number;
  /** Batches written at once where the pool allows (pipeline.ts); default 2. */
  batchesInFlight?: 1 | 2;
  csv: CsvOptions;
  /** Where rejected rows go (CSV: row, line, reason, then the row's cells). */
  errors?: string;
  /** Resume the newest unfinished import of this file (true) or the job with this id. */
  resume?: boolean | number;
  progress?: (done: number, total: number) => void;
  /** Tests: runs in each batch's transaction just before it commits (a throw is a crash mid-batch). */
  beforeCommit?: (batch: number) => void | Promise<void>;
}

export interface ImportSummary {
  job: number;
  mapping: string[];
  rows_read: number;
  created: number;
  updated: number;
  skipped: number;
  rejected: number;
  seconds: number;
  rows_per_second: number;
  resumed_after_batch?: number;
  errors_file?: string;
  /** Two batches in flight waited on each other's lock (pipeline.ts): the rest went one batch at a time. */
  lock_contention?: true;
  /** The first rejections (row, reason), for callers without an error file. */
  rejections: Array<Pick<Outcome, 'row' | 'reason'>>;
}

export interface ImportDeps {
  db: Knex;
  service: EntityService;
  registry: EntityRegistry;
  principal: Principal;
}

/** Batches written by one run past which the tables it wrote are analysed (10,000 rows by default). */
const ANALYSE_AFTER_BATCHES = 10;
const WRITTEN: Record<Target['kind'], string | undefined> = {
  contact: 'Contact',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  groups: 'GroupContact',
  tags: 'EntityTag',
  custom: undefined,
};

/**
 * The planner's statistics of the tables an import writes, after 10, 100, 1,000… batches of a run and at its
 * end: PGlite has no autovacuum, and PostgreSQL's runs later. Without them the batches' own look-ups (the
 * primary rules' `contact_id IN (…)` on emails and phones) were planned as if the tables were empty: sequential
 * scans that made a 1M-row import quadratic (5,000 rows/s at 20,000, ~1,400/s past 800,000); and a read
 * joining those tables afterwards (an export's keyset pages) likewise.
 */
export function analyseDue(batches: number): boolean {
  return batches >= ANALYSE_AFTER_BATCHES && /^10*$/.test(String(batches));
}

async function analyseWritten(deps: ImportDeps, mapping: Mapping, batches: number): Promise<void> {
  if (batches < ANALYSE_AFTER_BATCHES) return;
  const names = new Set(['Contact', ...mapping.map((target) => (target ? WRITTEN[target.kind] : undefined))]);
  for (const name of names) {
    const entity = name ? deps.registry.find(name) : undefined;
    if (entity) await deps.db.raw('analyze ??', [entity.table]);
  }
}

/** Pass one: the header and the number of rows, or the file's fault before anything is written. */
async function scan(request: ImportRequest): Promise<{ header: string[]; total: number }> {
  let header: string[] = [];
  let total = 0;
  for await (const item of csvRecords(request.input, request.csv)) {
    if ('header' in item) header = item.header;
    else total += 1;
  }
  return { header, total };
}

export async function runImport(deps: ImportDeps, request: ImportRequest): Promise<ImportSummary> {
  const started = Date.now();
  const { db, service, registry, principal } = deps;
  const entities = service.bind({ db, principal, trusted: true });
  const fileName = 'path' in request.input ? request.input.path : '(text)';
  const fileSize = 'path' in request.input ? statSync(request.input.path).size : Buffer.byteLength(request.input.text);
  const { header, total } = await scan(request);
  let job: JobRow;
  let options = { map: request.map, rule: request.rule, on: request.on, batchSize: request.batchSize };
  if (request.resume) {
    job = await findJob(db, fileName, typeof request.resume === 'number' ? request.resume : undefined);
    if (job.file_size !== fileSize)
      throw new KernelError('E_INVALID_PARAMS', `${fileName} changed since import ${job.id} began; start a new import`);
    options = JSON.parse(job.options ?? '{}') as typeof options;
  }
  const cat = await catalogue(registry, entities);
  const mapping: Mapping = options.map ? givenMapping(header, options.map, cat) : guessedMapping(header, cat);
  checkMapping(header, mapping);
  job ??= await startJob(db, fileName, fileSize, options);
  const resumedAfter = request.resume ? job.last_batch : undefined;
  const skipRows = job.last_batch * options.batchSize;
  const rules = { rule: options.rule, on: options.on, lookups: await loadLookups(registry, entities) };
  const errors = request.errors ? await ErrorFile.open(request.errors, header, Boolean(request.resume)) : undefined;
  const rejections: ImportSummary['rejections'] = [];
  const before = { ...job };
  let batchNo = job.last_batch;
  let pending: CsvRecord[] = [];
  // Batches in flight, oldest first, each settling once written and reported: two on PostgreSQL (pipeline.ts),
  // one on the embedded database (one connection). Either way the next one is read from the file meanwhile.
  const pipeline: Pipeline = { lanes: poolSize(db) > 1 ? (request.batchesInFlight ?? 2) : 1 };
  const lanesAtStart = pipeline.lanes;
  const inFlight: Array<Promise<void>> = [];
  let latest: BatchClaim | undefined;

  const report = async (rows: CsvRecord[], outcomes: Outcome[], written: number) => {
    const lines = new Map(rows.map((r) => [r.row, r]));
    for (const outcome of outcomes.filter((o) => o.result === 'rejected')) {
      if (rejections.length < 100) rejections.push({ row: outcome.row, reason: outcome.reason });
      await errors?.write(lines.get(outcome.row)!, outcome.reason ?? '');
    }
    request.progress?.(job.rows_read, total);
    if (analyseDue(written)) await analyseWritten(deps, mapping, written);
  };
  const startWriting = async (rows: CsvRecord[]) => {
    while (inFlight.length >= pipeline.lanes) await inFlight.shift();
    batchNo += 1;
    const batch = prepareBatch(rows, header, mapping);
    const claim = new BatchClaim(batch.records, pipeline, inFlight.length ? latest : undefined);
    const no = batchNo;
    claim.committed = commitBatch({
      deps,
      job,
      batchNo: no,
      batch,
      rules: { ...rules, gate: claim.gate },
      claim,
      beforeCommit: request.beforeCommit,
    });
    claim.committed.catch(() => undefined); // awaited by `done` below
    const reported = inFlight.at(-1);
    const done = (async () => {
      const outcomes = await claim.committed;
      // The earlier batch's rejected rows go first in the error file (its failure is thrown from its own promise).
      await reported?.catch(() => undefined);
      await report(rows, outcomes, no - before.last_batch);
    })();
    done.catch(() => undefined); // awaited before a later batch starts or at the end: its failure is not lost
    inFlight.push(done);
    latest = claim;
  };
  try {
    for await (const item of csvRecords(request.input, request.csv)) {
      if ('header' in item || item.row <= skipRows) continue;
      pending.push(item);
      if (pending.length >= options.batchSize) {
        await startWriting(pending);
        pending = [];
      }
    }
    if (pending.length) await startWriting(pending);
    while (inFlight.length) await inFlight.shift();
    await finishJob(db, job);
    // At the end too, unless the last batch's count just had them analysed.
    const written = batchNo - before.last_batch;
    if (!analyseDue(written)) await analyseWritten(deps, mapping, written);
  } catch (err) {
    await Promise.allSettled(inFlight); // batches in flight settle before the job is marked failed
    await finishJob(db, job, (err as Error).message).catch(() => undefined);
    throw err;
  } finally {
    await errors?.close();
  }
  const seconds = (Date.now() - started) / 1000;
  const readNow = job.rows_read - before.rows_read;
  return {
    job: job.id,
    mapping: describeMapping(header, mapping),
    rows_read: job.rows_read,
    created: job.created,
    updated: job.updated,
    skipped: job.skipped,
    rejected: job.rejected,
    seconds: Math.round(seconds * 100) / 100,
    rows_per_second: Math.round(readNow / Math.max(seconds, 0.001)),
    ...(resumedAfter !== undefined ? { resumed_after_batch: resumedAfter } : {}),
    ...(request.errors ? { errors_file: request.errors } : {}),
    ...(pipeline.lanes < lanesAtStart ? { lock_contention: true as const } : {}),
    rejections,
  };
}

/** Connections the database handle may open at once (the embedded engine's: one). */
function poolSize(db: Knex): number {
  return (db.client as { config?: { pool?: { max?: number } } }).config?.pool?.max ?? 1;
}
