/**
 * The job runner (`jobRunner` service). The schedule lives in `crm_job`, so any number of stateless
 * instances can tick: a tick claims each due job with one conditional UPDATE (the row lock makes a
 * second instance's claim of the same run find the job no longer due), moves `scheduled_run_date` one
 * interval on, and hands the run to the queue (queue.ts). A run calls the job's API action, trusted,
 * and writes its start and its result to JobLog.
 */
import type { Knex } from 'knex';
import { isKernelError, KernelError, type Api, type Logger, type Principal } from '../../kernel';
import type { JobQueue } from './queue';

/** Who a scheduled job runs as: no contact; the call is trusted (no permission check). */
export const JOB_PRINCIPAL: Principal = Object.freeze({
  contactId: null,
  userId: null,
  via: 'job',
  flow: 'job',
  permissions: new Set<string>(['*']),
});

const PERIODS: Record<string, number> = {
  Hourly: 3600,
  Daily: 86_400,
  Weekly: 7 * 86_400,
  Monthly: 30 * 86_400,
  Quarter: 91 * 86_400,
  Yearly: 365 * 86_400,
};

/** Seconds between two runs of a job of this frequency (`Always`: every interval of the runner). */
export function periodOf(frequency: string | null | undefined, intervalSeconds: number): number {
  return PERIODS[frequency ?? 'Daily'] ?? intervalSeconds;
}

/** A job's `parameters`: a JSON object, or the reference's `key=value` lines. */
export function parseParameters(text: unknown): Record<string, unknown> {
  if (text === null || text === undefined || String(text).trim() === '') return {};
  const raw = String(text).trim();
  if (raw.startsWith('{')) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      /* reported below */
    }
    throw new KernelError('E_INVALID_PARAMS', 'Job parameters: not a JSON object');
  }
  const out: Record<string, unknown> = {};
  for (const line of raw.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new KernelError('E_INVALID_PARAMS', `Job parameters: "${line.trim()}" is not key=value`);
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

export interface JobRow {
  id: number;
  name: string | null;
  api_entity: string;
  api_action: string;
  parameters: string | null;
  run_frequency: string | null;
  is_active: boolean;
}

export interface RunOutcome {
  id: number;
  name: string | null;
  ok: boolean;
  result: unknown;
}

export interface RunnerOptions {
  db: () => Knex;
  api: () => Api;
  queue: JobQueue;
  log: Logger;
  intervalSeconds: number;
}

export class JobRunner {
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<unknown>;

  constructor(private readonly opts: RunnerOptions) {}

  get queueKind(): string {
    return this.opts.queue.kind;
  }

  /**
   * Ticks every interval from now on. The queue (pg-boss's workers) starts with the first tick, one
   * interval after the start: a short-lived process (a CLI command) never joins the work.
   */
  startTimer(): void {
    this.timer = setInterval(() => {
      this.ticking ??= this.tick()
        .catch((err: unknown) =>
          this.opts.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'job tick failed'),
        )
        .finally(() => (this.ticking = undefined));
    }, this.opts.intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Starts the queue's workers on this instance (once). */
  startQueue(): Promise<void> {
    this.queueStarted ??= this.opts.queue.start(async (id) => {
      await this.run(id, 'schedule').catch((err: unknown) =>
        this.opts.log.error(
          { jobId: id, err: err instanceof Error ? err.message : String(err) },
          'scheduled job failed',
        ),
      );
    });
    return this.queueStarted;
  }

  private queueStarted?: Promise<void>;

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.ticking;
    if (this.queueStarted) await this.queueStarted.catch(() => undefined);
    await this.opts.queue.stop();
  }

  /** Claims the due jobs (this instance's share) and queues their runs; returns the ids claimed. */
  async tick(): Promise<number[]> {
    await this.startQueue();
    const claimed = await this.claimDue();
    for (const id of claimed)
      if (!(await this.opts.queue.enqueue(id)))
        this.opts.log.info({ jobId: id }, 'a run of this job is already waiting');
    return claimed;
  }

  private async claimDue(): Promise<number[]> {
    const db = this.opts.db();
    const due = (await db('crm_job')
      .where('is_active', true)
      .where((q) => q.whereNull('scheduled_run_date').orWhere('scheduled_run_date', '<=', db.raw('localtimestamp')))
      .orderBy('id')
      .select('id', 'run_frequency')) as Array<{ id: number; run_frequency: string | null }>;
    const claimed: number[] = [];
    for (const job of due) {
      const period = periodOf(job.run_frequency, this.opts.intervalSeconds);
      if (!(await this.claim(db, Number(job.id), period))) continue;
      claimed.push(Number(job.id));
    }
    return claimed;
  }

  /** Claims the due jobs and runs them here and now (APIv3 `Job.execute` without an id, `crm job run`). */
  async runDue(): Promise<RunOutcome[]> {
    const out: RunOutcome[] = [];
    for (const id of await this.claimDue()) out.push(await this.run(id, 'execute'));
    return out;
  }

  /**
   * One conditional UPDATE: only the first instance finds the job still due. The next run is one period
   * on, less a little slack (a tenth, at most 30 s) so timer jitter does not skip an interval.
   */
  private async claim(db: Knex, id: number, period: number): Promise<boolean> {
    const next = period - Math.min(period / 10, 30);
    const rows = await db('crm_job')
      .where({ id, is_active: true })
      .where((q) => q.whereNull('scheduled_run_date').orWhere('scheduled_run_date', '<=', db.raw('localtimestamp')))
      .update({ scheduled_run_date: db.raw('localtimestamp + make_interval(secs => ?)', [next]) })
      .returning('id');
    return rows.length === 1;
  }

  /** Runs one job now (whether due or not), logging its start and its result. */
  async run(id: number, trigger: 'schedule' | 'execute'): Promise<RunOutcome> {
    const db = this.opts.db();
    const job = (await db('crm_job').where({ id }).first()) as JobRow | undefined;
    if (!job) throw new KernelError('E_NOT_FOUND', `Job ${id} does not exist`);
    const command = `${job.api_entity}.${job.api_action}`;
    await this.write(db, job, `Starting execution of ${job.name ?? command}`, `Trigger: ${trigger}`);
    await db('crm_job').where({ id }).update({ last_run: db.fn.now() });
    let ok = true;
    let result: unknown;
    try {
      result = await this.opts.api().call({
        version: 3,
        entity: job.api_entity,
        action: job.api_action,
        params: parseParameters(job.parameters),
        principal: JOB_PRINCIPAL,
        trusted: true,
        internal: true,
      });
      if (result && typeof result === 'object' && (result as { is_error?: unknown }).is_error) ok = false;
    } catch (err) {
      ok = false;
      result = { error_code: isKernelError(err) ? err.code : 'E_INTERNAL', error_message: (err as Error).message };
    }
    await db('crm_job').where({ id }).update({ last_run_end: db.fn.now() });
    const verdict = ok ? 'Success' : 'Failure';
    await this.write(
      db,
      job,
      `Finished execution of ${job.name ?? command} with result: ${verdict}`,
      JSON.stringify(result),
    );
    if (!ok) this.opts.log.warn({ jobId: id, command }, 'scheduled job finished with an error (see JobLog)');
    return { id, name: job.name, ok, result };
  }

  private async write(db: Knex, job: JobRow, description: string, data: string): Promise<void> {
    await db('crm_job_log').insert({
      job_id: job.id,
      name: job.name,
      command: `${job.api_entity}.${job.api_action}`.slice(0, 255),
      description: description.slice(0, 255),
      data,
    });
  }
}
