/**
 * Where a claimed run goes. On PostgreSQL: pg-boss (ADR 0014), a queue every instance works on; its
 * `stately` policy keyed by job keeps at most one run of a job waiting and one running (a run claimed while
 * the previous one is still waiting is refused, and runs of one job never overlap), and a run whose worker
 * died expires. On the embedded database (one process): run in this process.
 */
import type PgBoss from 'pg-boss';
import type { Logger } from '../../kernel';

export type RunFn = (jobId: number) => Promise<void>;

export interface JobQueue {
  readonly kind: 'pg-boss' | 'local';
  start(run: RunFn): Promise<void>;
  /** Hands a claimed run over; false when the queue refused it (a run of this job is already waiting). */
  enqueue(jobId: number): Promise<boolean>;
  stop(): Promise<void>;
}

const QUEUE = 'crm-scheduled-jobs';

/** Single process: the run starts at once, in the background; errors are logged by the runner. */
export class LocalQueue implements JobQueue {
  readonly kind = 'local' as const;
  private run: RunFn = async () => undefined;
  private readonly running = new Set<Promise<void>>();

  async start(run: RunFn): Promise<void> {
    this.run = run;
  }

  async enqueue(jobId: number): Promise<boolean> {
    const running = this.run(jobId).finally(() => this.running.delete(running));
    this.running.add(running);
    return true;
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

export interface BossOptions {
  url: string;
  /** The PostgreSQL schema pg-boss keeps its tables in. */
  schema: string;
  /** How often an idle worker looks for runs, in seconds (pg-boss's minimum is 0.5). */
  pollingIntervalSeconds: number;
  /** Seconds after which a run whose worker vanished is failed (and the job runs again at its next slot). */
  expireInSeconds: number;
}

export class BossQueue implements JobQueue {
  readonly kind = 'pg-boss' as const;
  private boss?: PgBoss;

  constructor(
    private readonly opts: BossOptions,
    private readonly log: Logger,
  ) {}

  async start(run: RunFn): Promise<void> {
    // Loaded when this queue starts (PostgreSQL only), not at every start: pg-boss is ~0.1-0.3 s of loading.
    const { default: Boss } = await import('pg-boss');
    const boss = new Boss({
      connectionString: this.opts.url,
      schema: this.opts.schema,
      max: 2,
      schedule: false,
      application_name: 'crm-jobs',
    });
    // Never the connection string: only the message.
    boss.on('error', (err: Error) => this.log.warn({ err: err.message }, 'pg-boss reported an error'));
    await boss.start();
    this.boss = boss;
    await createQueueOnce(boss);
    await boss.work<{ jobId: number }>(
      QUEUE,
      { pollingIntervalSeconds: this.opts.pollingIntervalSeconds, batchSize: 1 },
      async (jobs) => {
        for (const job of jobs) await run(Number(job.data.jobId));
      },
    );
  }

  async enqueue(jobId: number): Promise<boolean> {
    if (!this.boss) return false;
    const id = await this.boss.send(
      QUEUE,
      { jobId },
      { singletonKey: `job-${jobId}`, retryLimit: 0, expireInSeconds: this.opts.expireInSeconds },
    );
    return id !== null;
  }

  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    await boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}

/**
 * Instances starting together both create the queue (a partition table and its row): PostgreSQL may answer
 * one of them with a deadlock (40P01) and roll it back. The queue then exists or is about to: try again.
 */
async function createQueueOnce(boss: PgBoss, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await boss.getQueue(QUEUE)))
        await boss.createQueue(QUEUE, { name: QUEUE, policy: 'stately', retryLimit: 0 });
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (attempt >= attempts || (code !== '40P01' && code !== '23505')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}
