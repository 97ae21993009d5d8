/** LocBlock over HTTP: nested address, email and phone (4.3.0), chained from Event (4.6.7). */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers } from './http';

describe('entity-event: LocBlock over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let venue: number;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    venue = Number(
      (
        await crm.api4(admin, 'Contact', 'create', {
          values: { contact_type: 'Organization', organization_name: 'Hall' },
        })
      ).values[0].id,
    );
  });
  after(() => crm?.t.close());

  const address = () => ({ contact_id: venue, location_type_id: 1, street_address: '1 Main St', city: 'Springfield' });

  it('4.3.0 LocBlock create with nested address, email, phone and an {id} link; get with a join; update; delete', async () => {
    const existing = await crm.api3(admin, 'Email', 'create', { contact_id: venue, email: 'second@example.org' });
    const made = await crm.api3(admin, 'LocBlock', 'create', {
      address: address(),
      email: { contact_id: venue, email: 'hall@example.org' },
      phone: { contact_id: venue, phone: '555-0100' },
      email_2: { id: existing.id },
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const row = made.values[String(made.id)];
    expect(row.email_2_id).to.equal(String(existing.id));
    const got = await crm.api3(admin, 'LocBlock', 'get', {
      id: made.id,
      return: ['address_id.city', 'email_id.email', 'phone_id.phone', 'email_2_id.email'],
    });
    expect(got.values[String(made.id)]).to.include({
      'address_id.city': 'Springfield',
      'email_id.email': 'hall@example.org',
      'phone_id.phone': '555-0100',
      'email_2_id.email': 'second@example.org',
    });
    const v4 = await crm.api4(admin, 'LocBlock', 'update', {
      where: [['id', '=', made.id]],
      values: { email_2_id: null },
    });
    expect(v4.values[0]).to.include({ email_2_id: null });
    const bad = await crm.api3(admin, 'LocBlock', 'create', { address: 'Main St' });
    expect(bad).to.include({ is_error: 1 });
    const fields = await crm.api4(admin, 'LocBlock', 'getFields', { select: ['name'] });
    expect(fields.values.map((field) => field.name)).to.include.members(['address_id', 'phone_2_id', 'im_id']);
    expect(await crm.api3(admin, 'LocBlock', 'delete', { id: made.id })).to.include({ is_error: 0 });
  });

  it('4.6.7 chaining: api.LocBlock.create inside Event.create becomes the event location; Event.get chains it back', async () => {
    const made = await crm.api3(admin, 'Event', 'create', {
      title: 'Located',
      start_date: '2027-05-05',
      event_type_id: 'Meeting',
      'api.LocBlock.create': { address: address(), email: { contact_id: venue, email: 'desk@example.org' } },
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const chained = made.values[String(made.id)]['api.LocBlock.create'] as { id: number; is_error: number };
    expect(chained).to.include({ is_error: 0 });
    const event = await crm.api4(admin, 'Event', 'get', {
      select: ['loc_block_id', 'loc_block_id.address_id.city', 'loc_block_id.email_id.email'],
      where: [['id', '=', made.id]],
    });
    expect(event.values[0]).to.include({
      loc_block_id: chained.id,
      'loc_block_id.address_id.city': 'Springfield',
      'loc_block_id.email_id.email': 'desk@example.org',
    });
    const back = await crm.api3(admin, 'Event', 'get', {
      id: made.id,
      'api.LocBlock.get': { return: ['address_id.street_address'] },
    });
    const block = back.values[String(made.id)]['api.LocBlock.get'] as {
      count: number;
      values: Array<Record<string, unknown>>;
    };
    expect(block.count).to.equal(1);
    expect(block.values[0]).to.include({ id: String(chained.id), 'address_id.street_address': '1 Main St' });
    // Deleting the block leaves the event without a location.
    expect(await crm.api3(admin, 'LocBlock', 'delete', { id: chained.id })).to.include({ is_error: 0 });
    const after = await crm.api4(admin, 'Event', 'get', { select: ['loc_block_id'], where: [['id', '=', made.id]] });
    expect(after.values[0]).to.include({ loc_block_id: null });
  });

  it("location blocks follow the event permissions; nested records the caller's contact access", async () => {
    const viewer = (await crm.userWith('viewer', ['access CRM', 'view events'])).headers;
    expect(await crm.api3(viewer, 'LocBlock', 'get', {})).to.include({ is_error: 0 });
    expect(await crm.api3(viewer, 'LocBlock', 'create', { address_id: null })).to.include({ is_error: 1 });
    const editor = (await crm.userWith('editor', ['access CRM', 'access events', 'edit events'])).headers;
    expect(await crm.api3(editor, 'LocBlock', 'create', { address_id: null })).to.include({ is_error: 0 });
    const foreign = await crm.api3(editor, 'LocBlock', 'create', { address: address() });
    expect(foreign).to.include({ is_error: 1 });
    const addresses = await crm.api4(admin, 'Address', 'get', { where: [['contact_id', '=', venue]] });
    expect(addresses.values.every((row) => row.street_address === '1 Main St')).to.equal(true);
  });

  it('4.3.0 an event cloned from a template gets its own copy of the template location', async () => {
    const template = await crm.api3(admin, 'Event', 'create', {
      is_template: 1,
      template_title: 'With a venue',
      'api.LocBlock.create': { address: address(), phone: { contact_id: venue, phone: '555-0199' } },
    });
    const templateBlock = (template.values[String(template.id)]['api.LocBlock.create'] as { id: number }).id;
    const clone = await crm.api3(admin, 'Event', 'create', {
      template_id: template.id,
      title: 'At the venue',
      start_date: '2027-07-07',
    });
    expect(clone, JSON.stringify(clone)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Event', 'get', {
      select: [
        'loc_block_id',
        'loc_block_id.address_id.city',
        'loc_block_id.phone_id.phone',
        'loc_block_id.address_id',
      ],
      where: [['id', 'IN', [template.id, clone.id]]],
      orderBy: { id: 'ASC' },
    });
    const [fromTemplate, cloned] = got.values;
    expect(fromTemplate.loc_block_id).to.equal(templateBlock);
    expect(cloned.loc_block_id).to.be.a('number').and.not.equal(templateBlock);
    expect(cloned['loc_block_id.address_id']).to.not.equal(fromTemplate['loc_block_id.address_id']);
    expect(cloned).to.include({
      'loc_block_id.address_id.city': 'Springfield',
      'loc_block_id.phone_id.phone': '555-0199',
    });
  });
});
