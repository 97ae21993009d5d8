/** Job and JobLog over both APIs (4.3.0): CRUD, getfields, Job.execute, the shipped jobs and the JobLog lines. */
import { expect } from 'chai';
import { cliCommands, cliContext, type CliCommand } from '../../../host';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('jobs: Job and JobLog', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let jobId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['jobs'], pluginConfig: { jobs: { autoStart: false } } });
    admin = (await crm.userWith('root', ['*'])).headers;
  });
  after(() => crm?.t.close());

  it('4.3.0 Job API: the shipped jobs are there (clean-up, OAuth refresh)', async () => {
    const got = await crm.api3(admin, 'Job', 'get', { api_entity: 'Job', sequential: 1 });
    expect(got, JSON.stringify(got)).to.include({ is_error: 0 });
    const actions = got.values.map((row) => row.api_action);
    expect(actions).to.include.members(['cleanup', 'refresh_oauth_tokens']);
  });

  it('APIv3 get filters on api_action (a Job field, not the control word)', async () => {
    const got = await crm.api3(admin, 'Job', 'get', { api_action: 'cleanup', sequential: 1 });
    expect(got.values.map((row) => row.api_action)).to.deep.equal(['cleanup']);
    const single = await crm.api3(admin, 'Job', 'getsingle', { api_action: 'refresh_oauth_tokens' });
    expect(single, JSON.stringify(single)).to.include({ api_action: 'refresh_oauth_tokens' });
  });

  it('APIv3 create, get with a filter, update; run_frequency by name; bad frequency refused', async () => {
    const created = await crm.api3(admin, 'Job', 'create', {
      name: 'Count contacts',
      api_entity: 'Contact',
      api_action: 'getcount',
      run_frequency: 'Hourly',
      parameters: 'contact_type=Individual',
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    jobId = Number(created.id);
    const got = await crm.api3(admin, 'Job', 'get', { run_frequency: 'Hourly', name: 'Count contacts' });
    expect(got.count).to.equal(1);
    expect(got.values[String(jobId)]).to.include({ api_action: 'getcount', is_active: '1' });
    const bad = await crm.api3(admin, 'Job', 'create', {
      name: 'x',
      api_entity: 'Contact',
      api_action: 'get',
      run_frequency: 'Often',
    });
    expect(bad).to.include({ is_error: 1 });
    const updated = await crm.api4(admin, 'Job', 'update', {
      where: [['id', '=', jobId]],
      values: { description: 'How many' },
    });
    expect(updated.values[0]).to.include({ description: 'How many' });
  });

  it('4.3.0 Job.execute runs one job now and logs its start and result in JobLog (join on the job)', async () => {
    const run = await crm.api3(admin, 'Job', 'execute', { id: jobId });
    expect(run, JSON.stringify(run)).to.include({ is_error: 0, count: 1 });
    expect(run.values[String(jobId)]).to.include({ result: 'Success' });
    const logs = await crm.api4(admin, 'JobLog', 'get', {
      select: ['description', 'command', 'data', 'job_id.name'],
      where: [['job_id', '=', jobId]],
      orderBy: { id: 'ASC' },
    });
    expect(logs.values.map((row) => row.description)).to.deep.equal([
      'Starting execution of Count contacts',
      'Finished execution of Count contacts with result: Success',
    ]);
    expect(logs.values[1]).to.include({ command: 'Contact.getcount', 'job_id.name': 'Count contacts' });
    const job = await crm.api4(admin, 'Job', 'get', {
      where: [['id', '=', jobId]],
      select: ['last_run', 'last_run_end'],
    });
    expect(job.values[0].last_run).to.be.a('string');
    expect(job.values[0].last_run_end).to.be.a('string');
  });

  it('Job.execute of a failing job logs the failure; an unknown job is an API error', async () => {
    const failing = await crm.api3(admin, 'Job', 'create', {
      name: 'Broken',
      api_entity: 'Nothing',
      api_action: 'get',
    });
    const run = await crm.api3(admin, 'Job', 'execute', { id: failing.id });
    expect(run.values[String(failing.id)]).to.include({ result: 'Failure' });
    const last = await crm.api3(admin, 'JobLog', 'get', {
      job_id: failing.id,
      sequential: 1,
      options: { sort: 'id DESC', limit: 1 },
    });
    expect(last.values[0].description).to.equal('Finished execution of Broken with result: Failure');
    const unknown = await crm.api3(admin, 'Job', 'execute', { id: 999999 });
    expect(unknown).to.include({ is_error: 1 });
    const badParams = await crm.api3(admin, 'Job', 'execute', { id: 'abc' });
    expect(badParams).to.include({ is_error: 1 });
  });

  it('Job.execute without an id runs the due jobs once; a second call in the same interval runs none', async () => {
    const first = await crm.api3(admin, 'Job', 'execute', {});
    expect(first, JSON.stringify(first)).to.include({ is_error: 0 });
    expect(first.count).to.be.greaterThan(0);
    const second = await crm.api3(admin, 'Job', 'execute', {});
    expect(second.count).to.equal(0);
  });

  it('Job.cleanup deletes expired sessions and OAuth states', async () => {
    const db = crm.t.kernel.db;
    await db('crm_oauth_state').insert({
      id: 'CC_expired_state_for_the_cleanup_t',
      data: '{}',
      expires_at: db.raw("now() - interval '1 hour'"),
    });
    const res = await crm.api3(admin, 'Job', 'cleanup', {});
    expect(res, JSON.stringify(res)).to.include({ is_error: 0 });
    expect(Object.values(res.values)[0], JSON.stringify(res)).to.include({ oauth_states_deleted: '1' });
  });

  it('getfields and delete; a JobLog line keeps its text when its job goes', async () => {
    const fields = await crm.api3(admin, 'Job', 'getfields', { action: 'create' });
    expect(Object.keys(fields.values)).to.include.members(['run_frequency', 'api_entity', 'api_action', 'parameters']);
    const deleted = await crm.api3(admin, 'Job', 'delete', { id: jobId });
    expect(deleted).to.include({ is_error: 0 });
    const logs = await crm.api3(admin, 'JobLog', 'get', { name: 'Count contacts' });
    // Run by Job.execute with its id, then again as a due job: two runs, two lines each.
    expect(logs.count).to.equal(4);
    expect(Object.values(logs.values).map((row) => row.job_id ?? '')).to.deep.equal(['', '', '', '']);
  });

  it('crm job list and crm job run <name> (the CLI commands)', async () => {
    const kernel = crm.t.kernel;
    const commands = (await kernel.hooks.run(cliCommands)) as CliCommand[];
    const list = commands.find((c) => c.name === 'job list')!;
    const run = commands.find((c) => c.name === 'job run')!;
    const listed = JSON.parse(String(await list.run([], {}, cliContext(kernel)))) as Array<Record<string, unknown>>;
    expect(listed.map((row) => row.call)).to.include('Job.cleanup');
    const outcome = JSON.parse(String(await run.run(['Clean-up Temporary Data'], {}, cliContext(kernel))));
    expect(outcome).to.include({ name: 'Clean-up Temporary Data', ok: true });
    let refused: unknown;
    try {
      await run.run(['No such job'], {}, cliContext(kernel));
    } catch (err) {
      refused = err;
    }
    expect(String(refused)).to.contain('Expected one job');
  });
});
