/** The import's job row: made at the start, moved on in each batch's transaction, found again by `--resume`. */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { Outcome } from './batch';

export interface JobRow {
  id: number;
  file_name: string | null;
  file_size: number | null;
  options: string | null;
  status: string;
  last_batch: number;
  rows_read: number;
  created: number;
  updated: number;
  skipped: number;
  rejected: number;
}

const TABLE = 'crm_import_job';

export async function startJob(db: Knex, fileName: string, fileSize: number, options: unknown): Promise<JobRow> {
  const [row] = (await db(TABLE)
    .insert({ file_name: fileName, file_size: fileSize, options: JSON.stringify(options), status: 'running' })
    .returning('*')) as JobRow[];
  return row;
}

/** The job to resume: by id, or the newest unfinished import of this file. */
export async function findJob(db: Knex, fileName: string, id?: number): Promise<JobRow> {
  const query = db(TABLE).whereNot('status', 'done');
  const row = (await (
    id ? query.where('id', id) : query.where('file_name', fileName).orderBy('id', 'desc')
  ).first()) as JobRow | undefined;
  if (!row)
    throw new KernelError(
      'E_NOT_FOUND',
      id ? `No unfinished import job ${id}` : `No unfinished import of ${fileName} to resume`,
    );
  return row;
}

/** In the batch's transaction: the batch counted and marked committed. */
export async function advanceJob(db: Knex, job: JobRow, batch: number, outcomes: Outcome[]): Promise<void> {
  const count = (result: Outcome['result']) => outcomes.filter((o) => o.result === result).length;
  const totals = {
    last_batch: batch,
    rows_read: job.rows_read + outcomes.length,
    created: job.created + count('created'),
    updated: job.updated + count('updated'),
    skipped: job.skipped + count('skipped'),
    rejected: job.rejected + count('rejected'),
  };
  await db(TABLE)
    .where('id', job.id)
    .update({ ...totals, modified_date: new Date() });
  Object.assign(job, totals);
}

export async function finishJob(db: Knex, job: JobRow, error?: string): Promise<void> {
  await db(TABLE)
    .where('id', job.id)
    .update({ status: error ? 'failed' : 'done', error: error ?? null, modified_date: new Date() });
  job.status = error ? 'failed' : 'done';
}
