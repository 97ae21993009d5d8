/** The shipped "Update Membership Statuses" job: a daily Job row that Job.execute runs (jobs plugin enabled). */
import { expect } from 'chai';
import { addUnits, today } from '../../../plugins/entity-member';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-member: the membership status job', function () {
  this.timeout(90000);
  let crm: EntityHttp;
  let admin: Headers;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-member', 'jobs'], pluginConfig: { jobs: { autoStart: false } } });
    admin = (await crm.userWith('root', ['*'])).headers;
  });
  after(() => crm?.t.close());

  it('ships a daily Job row calling Job.process_membership; Job.execute runs it', async () => {
    const job = await crm.api4(admin, 'Job', 'get', { where: [['api_action', '=', 'process_membership']] });
    expect(job.values, JSON.stringify(job)).to.have.length(1);
    expect(job.values[0]).to.include({ name: 'Update Membership Statuses', run_frequency: 'Daily', api_entity: 'Job' });
    const person = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Al' },
    });
    const type = await crm.api4(admin, 'MembershipType', 'create', {
      values: {
        name: 'General',
        member_of_contact_id: person.values[0].id,
        financial_type_id: 2,
        duration_unit: 'year',
        duration_interval: 1,
        period_type: 'rolling',
      },
    });
    const made = await crm.api3(admin, 'Membership', 'create', {
      contact_id: person.values[0].id,
      membership_type_id: type.values[0].id,
      join_date: addUnits(today(), 'month', -6),
    });
    await crm.api3(admin, 'Membership', 'create', { id: made.id, status_id: 'Grace' });
    const run = await crm.api3(admin, 'Job', 'execute', { name: 'Update Membership Statuses' });
    expect(run, JSON.stringify(run)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Membership', 'get', {
      select: ['status_id:name'],
      where: [['id', '=', Number(made.id)]],
    });
    expect(got.values[0]).to.include({ 'status_id:name': 'Current' });
  });
});
