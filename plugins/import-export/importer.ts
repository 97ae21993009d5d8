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
import { writeBatch, type Outcome, type Rule } from './batch';
import { csvRecords, type CsvOptions, type CsvRecord } from './csv-source';
import { ErrorFile } from './error-file';
import { advanceJob, findJob, finishJob, startJob, type JobRow } from './job';
import { loadLookups, type MatchOn } from './lookups';
import {
  catalogue,
  checkMapping,
  describeMapping,
  givenMapping,
  guessedMapping,
  type Mapping,
  type Target,
} from './mapping';
import { toRecord, type ImportRecord } from './records';

export interface ImportRequest {
  input: { path: string } | { text: string };
  map?: Record<string, unknown>;
  rule: Rule;
  on: MatchOn;
  batchSize: number;
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
  // A batch is written while the next one is read from the file (the reading fills the write's waits on the
  // database); batches still commit one after the other, in order, so `resume` stays exact.
  let writing: Promise<void> | undefined;

  const commit = async (rows: CsvRecord[]) => {
    batchNo += 1;
    const outcomes = await commitBatch(deps, job, batchNo, rows, header, mapping, rules, request.beforeCommit);
    const lines = new Map(rows.map((r) => [r.row, r]));
    for (const outcome of outcomes.filter((o) => o.result === 'rejected')) {
      if (rejections.length < 100) rejections.push({ row: outcome.row, reason: outcome.reason });
      await errors?.write(lines.get(outcome.row)!, outcome.reason ?? '');
    }
    request.progress?.(job.rows_read, total);
    // Between batches (the next one waits for this), so the embedded database's one connection is free.
    const written = batchNo - before.last_batch;
    if (analyseDue(written)) await analyseWritten(deps, mapping, written);
  };
  const startWriting = async (rows: CsvRecord[]) => {
    await writing;
    writing = commit(rows);
    writing.catch(() => undefined); // awaited before the next batch or at the end: its failure is not lost
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
    await writing;
    await finishJob(db, job);
    // At the end too, unless the last batch's count just had them analysed.
    const written = batchNo - before.last_batch;
    if (!analyseDue(written)) await analyseWritten(deps, mapping, written);
  } catch (err) {
    await writing?.catch(() => undefined); // a batch in flight settles before the job is marked failed
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
    rejections,
  };
}

/**
 * One batch, one transaction. The batch is written whole in a savepoint; if the database refuses it, it is
 * written again row by row (each in its own savepoint) so only the rows at fault are rejected.
 */
async function commitBatch(
  deps: ImportDeps,
  job: JobRow,
  batchNo: number,
  rows: CsvRecord[],
  header: string[],
  mapping: Mapping,
  rules: Parameters<typeof writeBatch>[3],
  beforeCommit?: (batch: number) => void | Promise<void>,
): Promise<Outcome[]> {
  const bind = (db: Knex) => deps.service.bind({ db, principal: deps.principal, trusted: true });
  return deps.db.transaction(async (trx) => {
    const outcomes = new Map<number, Outcome>();
    const records: ImportRecord[] = [];
    for (const row of rows) {
      const record = toRecord(row.row, row.cells, header, mapping);
      if (typeof record === 'string') outcomes.set(row.row, { row: row.row, result: 'rejected', reason: record });
      else records.push(record);
    }
    try {
      const written = await trx.transaction((sp) => writeBatch(sp, bind(sp), records, rules));
      for (const outcome of written) outcomes.set(outcome.row, outcome);
    } catch {
      for (const record of records) {
        try {
          const [outcome] = await trx.transaction((sp) => writeBatch(sp, bind(sp), [record], rules));
          outcomes.set(record.row, outcome);
        } catch (err) {
          outcomes.set(record.row, { row: record.row, result: 'rejected', reason: (err as Error).message });
        }
      }
    }
    const ordered = rows.map((row) => outcomes.get(row.row)!);
    await advanceJob(trx, job, batchNo, ordered);
    await beforeCommit?.(batchNo);
    return ordered;
  });
}
