/** The mailing family over HTTP: create, get with a filter and a join, update, delete, getfields; 4.6.0 rules. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';

describe('entity-mailing: the mailing entities through APIv3 and APIv4', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let adminId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-mailing'] });
    ({ headers: admin, contactId: adminId } = await crm.userWith('root', ['*']));
  });
  after(() => crm?.t.close());

  const ok = (answer: Row) => expect(answer, JSON.stringify(answer)).to.not.have.property('error_message');

  it('Mailing (4.6.0): a new mailing gets the defaults of the mailing screen and the default components', async () => {
    const made = await crm.api3(admin, 'Mailing', 'create', {
      name: 'Spring',
      subject: 'Spring news',
      body_text: 'Hi',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Mailing', 'get', {
      where: [['id', '=', made.id]],
      select: [
        'visibility',
        'url_tracking',
        'open_tracking',
        'override_verp',
        'forward_replies',
        'from_email',
        'created_id',
        'hash',
        'header_id.component_type',
        'footer_id.name',
      ],
    });
    ok(got);
    expect(got.values[0]).to.include({
      visibility: 'Public Pages',
      url_tracking: true,
      open_tracking: true,
      override_verp: true,
      forward_replies: false,
      from_email: 'info@EXAMPLE.ORG',
      created_id: adminId,
      'header_id.component_type': 'Header',
      'footer_id.name': 'Mailing Footer',
    });
    expect(got.values[0].hash).to.match(/^[0-9a-f]{16}$/);
  });

  it('Mailing (4.6.0): no recipients and no job until scheduled_date is set', async () => {
    const made = await crm.api3(admin, 'Mailing', 'create', { name: 'Draft', subject: 'Draft' });
    const jobs = await crm.api3(admin, 'MailingJob', 'get', { mailing_id: made.id });
    expect(jobs.count).to.equal(0);
    const scheduled = await crm.api3(admin, 'Mailing', 'create', {
      id: made.id,
      scheduled_date: '2020-01-01 10:00:00',
    });
    expect(scheduled, JSON.stringify(scheduled)).to.include({ is_error: 0 });
    const after = await crm.api3(admin, 'MailingJob', 'get', { mailing_id: made.id });
    expect(after.count).to.equal(1);
    expect(Object.values(after.values)[0]).to.include({ status: 'Scheduled', is_test: '0' });
  });

  it('Mailing.submit (4.6.0) needs scheduled_date; it schedules as the caller', async () => {
    const made = await crm.api3(admin, 'Mailing', 'create', { name: 'Submit me', subject: 'S' });
    const refused = await crm.api3(admin, 'Mailing', 'submit', { id: made.id });
    expect(refused.is_error).to.equal(1);
    expect(refused.error_message).to.match(/scheduled_date/);
    const submitted = await crm.api3(admin, 'Mailing', 'submit', {
      id: made.id,
      scheduled_date: '2020-01-02 00:00:00',
    });
    expect(submitted, JSON.stringify(submitted)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Mailing', 'get', {
      where: [['id', '=', made.id]],
      select: ['scheduled_id', 'scheduled_date'],
    });
    expect(got.values[0]).to.include({ scheduled_id: adminId, scheduled_date: '2020-01-02 00:00:00' });
  });

  it("permissions (4.6.0): 'create mailings' writes but may not schedule; 'schedule mailings' may submit", async () => {
    const writer = (await crm.userWith('writer', ['access CRM', 'create mailings'])).headers;
    const made = await crm.api3(writer, 'Mailing', 'create', { name: 'By writer', subject: 'W' });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const scheduling = await crm.api3(writer, 'Mailing', 'create', { id: made.id, scheduled_date: '2020-01-01' });
    expect(scheduling.is_error).to.equal(1);
    expect(scheduling.error_message).to.match(/schedule mailings/);
    expect(
      (await crm.api3(writer, 'Mailing', 'submit', { id: made.id, scheduled_date: '2020-01-01' })).is_error,
    ).to.equal(1);
    const scheduler = (await crm.userWith('scheduler', ['access CRM', 'create mailings', 'schedule mailings'])).headers;
    const submitted = await crm.api3(scheduler, 'Mailing', 'submit', { id: made.id, scheduled_date: '2020-01-01' });
    expect(submitted, JSON.stringify(submitted)).to.include({ is_error: 0 });
    const approving = await crm.api3(scheduler, 'Mailing', 'create', { id: made.id, approval_note: 'fine' });
    expect(approving.error_message).to.match(/approve mailings/);
    const nobody = (await crm.userWith('nobody', ['access CRM'])).headers;
    expect((await crm.api3(nobody, 'Mailing', 'get', {})).is_error).to.equal(1);
  });

  it('MailingComponent get (4.6.0): active components unless is_active is given; NULL gives all', async () => {
    const made = await crm.api3(admin, 'MailingComponent', 'create', {
      name: 'Old footer',
      component_type: 'Footer',
      is_active: 0,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const active = await crm.api3(admin, 'MailingComponent', 'get', { component_type: 'Footer' });
    expect(Object.values(active.values).map((row) => (row as Row).name)).to.deep.equal(['Mailing Footer']);
    const all = await crm.api3(admin, 'MailingComponent', 'get', { component_type: 'Footer', is_active: null });
    expect(all.count).to.equal(2);
    const inactive = await crm.api3(admin, 'MailingComponent', 'get', { component_type: 'Footer', is_active: 0 });
    expect(inactive.count).to.equal(1);
    const seeded = await crm.api4(admin, 'MailingComponent', 'get', {
      select: ['component_type'],
      where: [['is_default', '=', true]],
    });
    expect(seeded.values.map((row) => row.component_type)).to.include.members([
      'Header',
      'Footer',
      'Unsubscribe',
      'OptOut',
      'Reply',
    ]);
  });

  it('MailingComponent: a new default header replaces the old default, which new mailings then no longer get', async () => {
    const made = await crm.api3(admin, 'MailingComponent', 'create', {
      name: 'New header',
      component_type: 'Header',
      is_default: 1,
      body_text: 'New header text',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const defaults = await crm.api4(admin, 'MailingComponent', 'get', {
      where: [
        ['component_type', '=', 'Header'],
        ['is_default', '=', true],
      ],
      select: ['name'],
    });
    expect(defaults.values.map((row) => row.name)).to.deep.equal(['New header']);
    const mailing = await crm.api3(admin, 'Mailing', 'create', { name: 'After', subject: 'a' });
    const got = await crm.api4(admin, 'Mailing', 'get', { where: [['id', '=', mailing.id]], select: ['header_id'] });
    expect(got.values[0].header_id).to.equal(made.id);
  });

  for (const [entity, values] of [
    ['MailingGroup', { entity_table: 'civicrm_group', group_type: 'Include' }],
    ['MailingRecipients', { contact_id: 'self' }],
    ['MailingJob', { status: 'Scheduled' }],
    ['MailingAB', { name: 'Test AB', status: 'Draft', testing_criteria: 'subject' }],
    ['MailingEventQueue', { contact_id: 'self', hash: 'abcdef0123456789' }],
  ] as Array<[string, Row]>) {
    it(`${entity}: create, get with a filter and a join, update, delete, getfields (APIv3 and APIv4)`, async () => {
      const mailing = await crm.api3(admin, 'Mailing', 'create', { name: `For ${entity}`, subject: 'x' });
      const group = await crm.api4(admin, 'Group', 'create', { values: { title: `G ${entity}` } });
      const link = entity === 'MailingAB' ? { mailing_id_a: mailing.id } : { mailing_id: mailing.id };
      const extra: Row = { ...values };
      if (extra.contact_id === 'self') extra.contact_id = adminId;
      if (entity === 'MailingGroup') extra.entity_id = group.values[0].id;
      const made = await crm.api3(admin, entity, 'create', { ...link, ...extra });
      expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
      const key = Object.keys(link)[0];
      const got = await crm.api4(admin, entity, 'get', {
        where: [[key, '=', mailing.id]],
        select: ['id', `${key}.name`],
      });
      ok(got);
      expect(got.values).to.have.length(1);
      expect(got.values[0][`${key}.name`]).to.equal(`For ${entity}`);
      const updated = await crm.api4(admin, entity, 'update', {
        where: [['id', '=', made.id]],
        values: { [key]: mailing.id },
      });
      ok(updated);
      const v3 = await crm.api3(admin, entity, 'get', { [key]: mailing.id, return: [`${key}.name`] });
      expect(v3.count).to.equal(1);
      const fields = await crm.api3(admin, entity, 'getfields', {});
      expect(fields.values).to.have.property(key);
      const deleted = await crm.api3(admin, entity, 'delete', { id: made.id });
      expect(deleted, JSON.stringify(deleted)).to.include({ is_error: 0 });
      expect((await crm.api4(admin, entity, 'get', { where: [['id', '=', made.id]] })).values).to.have.length(0);
    });
  }

  it('Mailing: update, delete and getfields; a bad value is an API error', async () => {
    const made = await crm.api4(admin, 'Mailing', 'create', { values: { name: 'V4', subject: 'v4' } });
    ok(made);
    const id = made.values[0].id;
    ok(await crm.api4(admin, 'Mailing', 'update', { where: [['id', '=', id]], values: { subject: 'v4 again' } }));
    const bad = await crm.api3(admin, 'Mailing', 'create', { id, visibility: 'Everywhere' });
    expect(bad.is_error).to.equal(1);
    const fields = await crm.api4(admin, 'Mailing', 'getFields', { select: ['name'] });
    expect(fields.values.map((row) => row.name)).to.include.members([
      'header_id',
      'scheduled_date',
      'visibility',
      'hash',
    ]);
    ok(await crm.api4(admin, 'Mailing', 'delete', { where: [['id', '=', id]] }));
  });
});
