/** Event over HTTP: create, get, update, delete, getfields; templates (4.3.0) and price_set_id (4.7.25). */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-event: Event over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
  });
  after(() => crm?.t.close());

  const event = (values: Row) =>
    crm.api3(admin, 'Event', 'create', {
      title: 'Annual Conference',
      start_date: '2027-03-01 09:00:00',
      event_type_id: 'Conference',
      ...values,
    });

  it('APIv3 create with the defaults, get with a filter and a join, update, delete, getfields', async () => {
    const made = await event({ financial_type_id: 'Event Fee', is_monetary: 1 });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const row = made.values[String(made.id)];
    expect(row).to.include({ is_active: '1', is_template: '0', default_role_id: '1', event_type_id: '1' });
    const got = await crm.api3(admin, 'Event', 'get', {
      event_type_id: 'Conference',
      return: ['title', 'financial_type_id.name', 'event_type_id'],
    });
    expect(got.count).to.equal(1);
    expect(got.values[String(made.id)]).to.include({
      title: 'Annual Conference',
      'financial_type_id.name': 'Event Fee',
    });
    const legacy = await crm.api3(admin, 'Event', 'create', { id: made.id, contribution_type_id: 'Donation' });
    expect(legacy.values[String(made.id)]).to.include({ financial_type_id: '1' });
    const v4 = await crm.api4(admin, 'Event', 'update', {
      where: [['id', '=', made.id]],
      values: { max_participants: 40, 'event_type_id:name': 'Workshop' },
    });
    expect(v4.values[0]).to.include({ max_participants: 40, event_type_id: 6 });
    const fields = await crm.api3(admin, 'Event', 'getfields', { action: 'create' });
    expect(fields.values).to.include.keys('title', 'start_date', 'loc_block_id', 'is_template', 'template_title');
    expect(await crm.api3(admin, 'Event', 'delete', { id: made.id })).to.include({ is_error: 0 });
  });

  it('refuses an event without title, start date or type, and a template without its title', async () => {
    const noType = await crm.api3(admin, 'Event', 'create', { title: 'X', start_date: '2027-01-01' });
    expect(noType).to.include({ is_error: 1, error_code: 'mandatory_missing' });
    expect(String(noType.error_message)).to.contain('event_type_id');
    const noTitle = await crm.api3(admin, 'Event', 'create', { is_template: 1, title: 'T' });
    expect(noTitle).to.include({ is_error: 1 });
    expect(String(noTitle.error_message)).to.contain('template_title');
  });

  it('4.3.0 Event create with template_id clones the template: its fields, the given title, not a template', async () => {
    const template = await crm.api3(admin, 'Event', 'create', {
      is_template: 1,
      template_title: 'Workshop template',
      event_type_id: 'Workshop',
      summary: 'Hands-on',
      max_participants: 12,
      is_monetary: 1,
      financial_type_id: 'Event Fee',
      is_public: 0,
    });
    expect(template, JSON.stringify(template)).to.include({ is_error: 0 });
    const set = await crm.api4(admin, 'PriceSet', 'create', {
      values: { name: 'workshop_fee', title: 'Workshop fee', extends: [1] },
    });
    await crm.api4(admin, 'PriceSetEntity', 'create', {
      values: { entity_table: 'civicrm_event', entity_id: template.id, price_set_id: set.values[0].id },
    });
    const clone = await crm.api3(admin, 'Event', 'create', {
      template_id: template.id,
      title: 'Spring workshop',
      start_date: '2027-04-01 10:00:00',
      max_participants: 20,
    });
    expect(clone, JSON.stringify(clone)).to.include({ is_error: 0 });
    expect(clone.id).to.not.equal(template.id);
    const got = await crm.api4(admin, 'Event', 'get', {
      select: [
        'title',
        'summary',
        'event_type_id:name',
        'max_participants',
        'is_template',
        'is_public',
        'price_set_id',
      ],
      where: [['id', '=', clone.id]],
    });
    expect(got.values, JSON.stringify(got)).to.have.length(1);
    expect(got.values[0]).to.include({
      title: 'Spring workshop',
      summary: 'Hands-on',
      'event_type_id:name': 'Workshop',
      max_participants: 20,
      is_template: false,
      is_public: false,
      price_set_id: set.values[0].id,
    });
    const stillTemplate = await crm.api4(admin, 'Event', 'get', {
      select: ['is_template', 'template_title'],
      where: [['id', '=', template.id]],
    });
    expect(stillTemplate.values[0]).to.include({ is_template: true, template_title: 'Workshop template' });
    const noSuch = await event({ template_id: 999999 });
    expect(noSuch).to.include({ is_error: 1 });
  });

  it('4.7.25 Event get returns price_set_id only when a return is given (APIv3); APIv4 selects it', async () => {
    const made = await event({ title: 'Priced', is_monetary: 1 });
    const set = await crm.api4(admin, 'PriceSet', 'create', {
      values: { name: 'priced', title: 'Priced', extends: [1] },
    });
    await crm.api3(admin, 'PriceSetEntity', 'create', {
      entity_table: 'civicrm_event',
      entity_id: made.id,
      price_set_id: set.values[0].id,
    });
    const plain = await crm.api3(admin, 'Event', 'get', { id: made.id });
    expect(plain.values[String(made.id)]).to.not.have.property('price_set_id');
    const asked = await crm.api3(admin, 'Event', 'get', { id: made.id, return: 'title,price_set_id' });
    expect(asked.values[String(made.id)]).to.include({ title: 'Priced', price_set_id: String(set.values[0].id) });
    const anyReturn = await crm.api3(admin, 'Event', 'get', { id: made.id, return: ['title'] });
    expect(anyReturn.values[String(made.id)]).to.include({ price_set_id: String(set.values[0].id) });
    const v4Default = await crm.api4(admin, 'Event', 'get', { where: [['id', '=', made.id]] });
    expect(v4Default.values, JSON.stringify(v4Default)).to.have.length(1);
    expect(v4Default.values[0]).to.not.have.property('price_set_id');
    const v4 = await crm.api4(admin, 'Event', 'get', { select: ['price_set_id'], where: [['id', '=', made.id]] });
    expect(v4.values[0]).to.include({ price_set_id: set.values[0].id });
    const filtered = await crm.api4(admin, 'Event', 'get', {
      select: ['id'],
      where: [['price_set_id', '=', set.values[0].id]],
    });
    expect(filtered.values.map((row) => row.id)).to.deep.equal([made.id]);
  });

  it('APIv3 Event get with isCurrent: events starting or ending today or later', async () => {
    const past = await event({ title: 'Past', start_date: '2001-01-01', end_date: '2001-01-02', summary: 'when' });
    const running = await event({
      title: 'Running',
      start_date: '2001-01-01',
      end_date: '2999-01-01',
      summary: 'when',
    });
    const future = await event({ title: 'Future', start_date: '2999-01-01', summary: 'when' });
    const all = await crm.api3(admin, 'Event', 'get', { summary: 'when' });
    expect(Object.keys(all.values)).to.have.members([past.id, running.id, future.id].map(String));
    const current = await crm.api3(admin, 'Event', 'get', { summary: 'when', isCurrent: 1 });
    expect(Object.keys(current.values)).to.have.members([running.id, future.id].map(String));
  });

  it('permissions: view events reads, edit events writes, delete events deletes (CiviEvent aliases too)', async () => {
    const viewer = (await crm.userWith('viewer', ['access CRM', 'view event info'])).headers;
    const editor = (await crm.userWith('editor', ['access CRM', 'access CiviEvent', 'edit all events'])).headers;
    const made = await event({ title: 'Guarded' });
    expect((await crm.api3(viewer, 'Event', 'get', { id: made.id })).count).to.equal(1);
    expect(await crm.api3(viewer, 'Event', 'create', { id: made.id, title: 'No' })).to.include({ is_error: 1 });
    expect(await crm.api3(editor, 'Event', 'create', { id: made.id, title: 'Yes' })).to.include({ is_error: 0 });
    expect(await crm.api3(editor, 'Event', 'delete', { id: made.id })).to.include({ is_error: 1 });
    const deleter = (await crm.userWith('deleter', ['access CRM', 'access events', 'delete in CiviEvent'])).headers;
    expect(await crm.api3(deleter, 'Event', 'delete', { id: made.id })).to.include({ is_error: 0 });
  });
});
