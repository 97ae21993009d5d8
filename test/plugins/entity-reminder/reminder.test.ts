/** ActionSchedule over both APIs (4.4.2): CRUD, options, a filter, a join on the group, getfields. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-reminder: ActionSchedule', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let scheduleId: number;
  let groupId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-reminder'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    groupId = Number((await crm.api3(admin, 'Group', 'create', { title: 'Volunteers' })).id);
  });
  after(() => crm?.t.close());

  it('4.4.2 ActionSchedule API: create a reminder with units and conditions, defaults filled in', async () => {
    const created = await crm.api3(admin, 'ActionSchedule', 'create', {
      name: 'volunteer_shift',
      title: 'Shift reminder',
      start_action_offset: 2,
      start_action_unit: 'day',
      start_action_condition: 'before',
      entity_value: ['1', '3'],
      group_id: groupId,
      subject: 'Your shift',
      body_text: 'See you soon',
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    scheduleId = Number(created.id);
    expect(created.values[String(scheduleId)]).to.include({ is_active: '1', mode: 'Email', is_repeat: '0' });
    const bad = await crm.api3(admin, 'ActionSchedule', 'create', {
      name: 'x',
      title: 'x',
      start_action_unit: 'fortnight',
    });
    expect(bad).to.include({ is_error: 1 });
    const twice = await crm.api3(admin, 'ActionSchedule', 'create', { name: 'volunteer_shift', title: 'again' });
    expect(twice).to.include({ is_error: 1 });
  });

  it('get with a filter and a join on the group; entity_value as a list', async () => {
    const got = await crm.api4(admin, 'ActionSchedule', 'get', {
      select: ['title', 'entity_value', 'group_id.title', 'start_action_unit'],
      where: [['start_action_condition', '=', 'before']],
    });
    expect(got.values).to.have.length(1);
    expect(got.values[0]).to.include({
      title: 'Shift reminder',
      'group_id.title': 'Volunteers',
      start_action_unit: 'day',
    });
    expect(got.values[0].entity_value).to.deep.equal(['1', '3']);
  });

  it('update, getfields, delete; needs administer CRM', async () => {
    const updated = await crm.api4(admin, 'ActionSchedule', 'update', {
      where: [['id', '=', scheduleId]],
      values: { is_repeat: true, repetition_frequency_unit: 'week', repetition_frequency_interval: 1 },
    });
    expect(updated.values[0]).to.include({ is_repeat: true, repetition_frequency_unit: 'week' });
    const fields = await crm.api3(admin, 'ActionSchedule', 'getfields', { action: 'create' });
    expect(Object.keys(fields.values)).to.include.members(['start_action_offset', 'recipient', 'mode']);
    const clerk = (await crm.userWith('clerk', ['access CRM'])).headers;
    expect(await crm.api3(clerk, 'ActionSchedule', 'get', {})).to.include({ is_error: 1 });
    expect(await crm.api3(admin, 'ActionSchedule', 'delete', { id: scheduleId })).to.include({ is_error: 0 });
  });
});
