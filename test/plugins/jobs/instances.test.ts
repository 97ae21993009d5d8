/**
 * The runner across instances (PostgreSQL only; the embedded database is one process): two service instances
 * sharing one database, both ticking, run each due job once per interval; the runs travel through pg-boss.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { type Kernel } from '../../../kernel';
import { createKernel, createLogger } from '../../../host';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import type { JobRunner } from '../../../plugins/jobs';

describe('jobs: one run per interval across two instances (PostgreSQL, pg-boss)', function () {
  this.timeout(60000);
  let instanceA: TestKernel;
  let instanceB: Kernel;
  let db: Knex;
  let jobId: number;
  const runner = (kernel: Kernel) => kernel.container.resolve<JobRunner>('jobRunner');
  const starts = async () =>
    Number(
      (
        (await db('crm_job_log')
          .where({ job_id: jobId })
          .where('description', 'like', 'Starting%')
          .count({ n: '*' })) as Array<{ n: string }>
      )[0].n,
    );
  const finishes = async () =>
    Number(
      (
        (await db('crm_job_log')
          .where({ job_id: jobId })
          .where('description', 'like', 'Finished%')
          .count({ n: '*' })) as Array<{ n: string }>
      )[0].n,
    );
  /** Waits (bounded) for the queued runs to finish on whichever instance picked them up. */
  const settled = async (expected: number) => {
    for (let i = 0; i < 100 && (await finishes()) < expected; i++) await new Promise((r) => setTimeout(r, 100));
  };

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    instanceA = await bootTestKernel({
      plugins: ['jobs'],
      config: { pluginConfig: { jobs: { autoStart: false, pollingIntervalSeconds: 0.5, intervalSeconds: 60 } } },
      logLevel: 'warn',
    });
    instanceB = await createKernel({ config: instanceA.config, log: createLogger({ level: 'silent' }) });
    db = instanceA.kernel.db;
    // Only our job is due: the shipped ones wait.
    await db('crm_job').update({ scheduled_run_date: db.raw("localtimestamp + interval '1 day'") });
    [jobId] = (
      await db('crm_job')
        .insert({ name: 'Count', api_entity: 'Job', api_action: 'getcount', run_frequency: 'Always', is_active: true })
        .returning('id')
    ).map((row: { id: number }) => Number(row.id));
  });
  after(async () => {
    await instanceB?.close();
    await instanceA?.close();
    // pg-boss's schema sits beside the test schema: dropped with it.
    if (instanceA)
      await instanceA.kernel.db
        .raw(`drop schema if exists "${instanceA.config.database.schema}_pgboss" cascade`)
        .catch(() => undefined);
  });

  it('both instances tick at once: the job runs once, on one of them, through pg-boss', async () => {
    expect(runner(instanceA.kernel).queueKind).to.equal('pg-boss');
    const [claimedA, claimedB] = await Promise.all([runner(instanceA.kernel).tick(), runner(instanceB).tick()]);
    expect([...claimedA, ...claimedB]).to.deep.equal([jobId]);
    await settled(1);
    expect(await starts()).to.equal(1);
    expect(await finishes()).to.equal(1);
    // Ticking again in the same interval runs nothing.
    expect(await runner(instanceA.kernel).tick()).to.deep.equal([]);
    expect(await runner(instanceB).tick()).to.deep.equal([]);
  });

  it('the next interval runs it once more (the schedule lives in crm_job, not in an instance)', async () => {
    // The interval passes: the job's next run is due now.
    await db('crm_job')
      .where({ id: jobId })
      .update({ scheduled_run_date: db.raw('localtimestamp') });
    const [claimedA, claimedB] = await Promise.all([runner(instanceB).tick(), runner(instanceA.kernel).tick()]);
    expect([...claimedA, ...claimedB]).to.deep.equal([jobId]);
    await settled(2);
    expect(await starts()).to.equal(2);
    const job = await db('crm_job').where({ id: jobId }).first();
    expect(job.last_run).to.not.equal(null);
    expect(new Date(job.scheduled_run_date).getTime()).to.be.above(new Date(job.last_run).getTime());
  });
});
