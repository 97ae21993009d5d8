/** Participant, ParticipantStatusType and ParticipantPayment over HTTP: defaults, reference keys, payment completion. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-event: participants over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;
  let bob: number;
  let eventId: number;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const contact = async (first: string) =>
      Number(
        (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: first } }))
          .values[0].id,
      );
    ann = await contact('Ann');
    bob = await contact('Bob');
    const made = await crm.api3(admin, 'Event', 'create', {
      title: 'Gala',
      start_date: '2027-06-01 19:00:00',
      event_type_id: 'Fundraiser',
      default_role_id: 'Host',
    });
    eventId = Number(made.id);
  });
  after(() => crm?.t.close());

  it('seeds the reference participant statuses in order, with their classes', async () => {
    const got = await crm.api4(admin, 'ParticipantStatusType', 'get', {
      select: ['id', 'name', 'class', 'is_counted'],
      orderBy: { weight: 'ASC' },
    });
    expect(got.values.map((row) => row.name)).to.deep.equal([
      'Registered',
      'Attended',
      'No-show',
      'Cancelled',
      'Pending from pay later',
      'Pending from incomplete transaction',
      'On waitlist',
      'Awaiting approval',
      'Pending from waitlist',
      'Pending from approval',
      'Rejected',
      'Expired',
      'Pending in cart',
      'Partially paid',
      'Pending refund',
      'Transferred',
    ]);
    expect(got.values[0]).to.include({ id: 1, class: 'Positive', is_counted: true });
    expect(got.values[4]).to.include({ id: 5, class: 'Pending' });
    const roles = await crm.api3(admin, 'Participant', 'getoptions', { field: 'role_id' });
    expect(Object.values(roles.values)).to.deep.equal(['Attendee', 'Volunteer', 'Host', 'Speaker']);
    const types = await crm.api3(admin, 'Event', 'getoptions', { field: 'event_type_id' });
    expect(Object.values(types.values)).to.include.members(['Conference', 'Workshop']);
  });

  it('APIv3 create: status defaults to Registered, role to the event default; get answers participant_ keys', async () => {
    const made = await crm.api3(admin, 'Participant', 'create', { contact_id: ann, event_id: eventId });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'Participant', 'get', { id: made.id });
    const row = got.values[String(made.id)];
    expect(row).to.include({
      id: String(made.id),
      participant_id: String(made.id),
      contact_id: String(ann),
      event_id: String(eventId),
      participant_status_id: '1',
      participant_is_test: '0',
      event_title: 'Gala',
      event_start_date: '2027-06-01 19:00:00',
      display_name: 'Ann',
      contact_type: 'Individual',
    });
    expect(row).to.have.property('participant_register_date');
    // A multi-valued field: a list in both APIs (the reference's APIv3 answers a separated string).
    expect(row.participant_role_id).to.deep.equal(['3']);
    const joined = await crm.api3(admin, 'Participant', 'get', {
      participant_status_id: 'Registered',
      return: ['contact_id.display_name', 'status_id.label', 'event_id.title'],
    });
    expect(joined.values[String(made.id)]).to.include({
      'contact_id.display_name': 'Ann',
      'status_id.label': 'Registered',
      'event_id.title': 'Gala',
    });
    const changed = await crm.api3(admin, 'Participant', 'create', {
      id: made.id,
      participant_status: 'Attended',
      role_id: ['Attendee', 'Speaker'],
    });
    expect(changed, JSON.stringify(changed)).to.include({ is_error: 0 });
    const v4 = await crm.api4(admin, 'Participant', 'get', {
      select: ['status_id:name', 'role_id:name', 'event_id.event_type_id:name'],
      where: [['id', '=', made.id]],
    });
    expect(v4.values[0]).to.deep.include({
      'status_id:name': 'Attended',
      'role_id:name': ['Attendee', 'Speaker'],
      'event_id.event_type_id:name': 'Fundraiser',
    });
    const fields = await crm.api3(admin, 'Participant', 'getfields', { action: 'create' });
    expect(fields.values).to.include.keys('status_id', 'role_id', 'register_date', 'fee_amount');
    expect(await crm.api3(admin, 'Participant', 'delete', { id: made.id })).to.include({ is_error: 0 });
  });

  it('refuses registrations for event templates, unknown statuses and missing contacts', async () => {
    const template = await crm.api3(admin, 'Event', 'create', { is_template: 1, template_title: 'T' });
    const onTemplate = await crm.api3(admin, 'Participant', 'create', { contact_id: ann, event_id: template.id });
    expect(onTemplate).to.include({ is_error: 1, error_message: 'Event templates are not meant to be registered.' });
    const badStatus = await crm.api3(admin, 'Participant', 'create', {
      contact_id: ann,
      event_id: eventId,
      status_id: 'Dancing',
    });
    expect(badStatus).to.include({ is_error: 1 });
    const noContact = await crm.api4(admin, 'Participant', 'create', { values: { event_id: eventId } });
    expect(noContact).to.have.property('error_message');
  });

  it('APIv4 create, update and delete with the test-participant get default of APIv3', async () => {
    const made = await crm.api4(admin, 'Participant', 'create', {
      values: { contact_id: bob, event_id: eventId, is_test: true, 'status_id:name': 'Pending from pay later' },
    });
    const row = made.values[0] as Row;
    expect(row).to.include({ status_id: 5, is_test: true });
    expect(row.role_id).to.deep.equal(['3']);
    const v3Default = await crm.api3(admin, 'Participant', 'get', { contact_id: bob });
    expect(v3Default.count).to.equal(0);
    const v3Test = await crm.api3(admin, 'Participant', 'get', { contact_id: bob, participant_test: 1 });
    expect(v3Test.count).to.equal(1);
    const updated = await crm.api4(admin, 'Participant', 'update', {
      where: [['id', '=', row.id]],
      values: { source: 'Phone', fee_amount: '12.50' },
    });
    expect(updated.values[0]).to.include({ source: 'Phone', fee_amount: 12.5 });
    const deleted = await crm.api4(admin, 'Participant', 'delete', { where: [['id', '=', row.id]] });
    expect(deleted.count).to.equal(1);
  });

  it('ParticipantPayment: completing the contribution registers a Pending participant (4.3.4 completetransaction)', async () => {
    const pending = await crm.api3(admin, 'Participant', 'create', {
      contact_id: ann,
      event_id: eventId,
      status_id: 'Pending from pay later',
      is_pay_later: 1,
    });
    const attended = await crm.api3(admin, 'Participant', 'create', {
      contact_id: bob,
      event_id: eventId,
      status_id: 2,
    });
    const contribution = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Event Fee',
      total_amount: '40.00',
      contribution_status_id: 'Pending',
      is_pay_later: 1,
    });
    for (const participant of [pending, attended]) {
      const link = await crm.api3(admin, 'ParticipantPayment', 'create', {
        participant_id: participant.id,
        contribution_id: contribution.id,
      });
      expect(link, JSON.stringify(link)).to.include({ is_error: 0 });
    }
    const twice = await crm.api3(admin, 'ParticipantPayment', 'create', {
      participant_id: pending.id,
      contribution_id: contribution.id,
    });
    expect(twice).to.include({ is_error: 1 });
    const links = await crm.api4(admin, 'ParticipantPayment', 'get', {
      select: ['participant_id.contact_id.display_name', 'contribution_id.total_amount'],
      where: [['contribution_id', '=', contribution.id]],
      orderBy: { id: 'ASC' },
    });
    expect(links.values.map((row) => row['participant_id.contact_id.display_name'])).to.deep.equal(['Ann', 'Bob']);
    const done = await crm.api3(admin, 'Contribution', 'completetransaction', { id: contribution.id });
    expect(done, JSON.stringify(done)).to.include({ is_error: 0 });
    const after = await crm.api4(admin, 'Participant', 'get', {
      select: ['id', 'status_id:name'],
      where: [['id', 'IN', [pending.id, attended.id]]],
      orderBy: { id: 'ASC' },
    });
    expect(after.values.map((row) => row['status_id:name'])).to.deep.equal(['Registered', 'Attended']);
    const fields = await crm.api4(admin, 'ParticipantPayment', 'getFields', { select: ['name'] });
    expect(fields.values.map((row) => row.name)).to.deep.equal(['id', 'participant_id', 'contribution_id']);
    // Deleting the contribution takes its payment links along; the participant stays.
    expect(await crm.api3(admin, 'Contribution', 'delete', { id: contribution.id })).to.include({ is_error: 0 });
    expect((await crm.api3(admin, 'ParticipantPayment', 'get', { participant_id: pending.id })).count).to.equal(0);
    expect((await crm.api3(admin, 'Participant', 'get', { id: pending.id })).count).to.equal(1);
  });

  it('row access: a participant follows its contact; participant permissions with their CiviEvent aliases', async () => {
    const own = await crm.userWith('self', ['access CRM', 'access CiviEvent', 'view event participants']);
    const mine = await crm.api3(admin, 'Participant', 'create', { contact_id: own.contactId, event_id: eventId });
    await crm.api3(admin, 'Participant', 'create', { contact_id: ann, event_id: eventId });
    const seen = await crm.api3(own.headers, 'Participant', 'get', { event_id: eventId });
    expect(Object.keys(seen.values)).to.deep.equal([String(mine.id)]);
    const write = await crm.api3(own.headers, 'Participant', 'create', { id: mine.id, source: 'web' });
    expect(write).to.include({ is_error: 1 });
    const staff = (
      await crm.userWith('staff', ['access CRM', 'view all contacts', 'access events', 'view participants'])
    ).headers;
    expect((await crm.api3(staff, 'Participant', 'get', { event_id: eventId })).count).to.be.greaterThan(1);
    const none = (await crm.userWith('none', ['access CRM', 'view all contacts'])).headers;
    expect(await crm.api3(none, 'Participant', 'get', { event_id: eventId })).to.include({ is_error: 1 });
  });
  it('row access: a participant payment follows the participant contact, on reads and writes', async () => {
    const clerk = await crm.userWith('clerk', [
      'access CRM',
      'access events',
      'view participants',
      'edit participants',
    ]);
    const own = await crm.api3(admin, 'Participant', 'create', { contact_id: clerk.contactId, event_id: eventId });
    const other = await crm.api3(admin, 'Participant', 'create', { contact_id: ann, event_id: eventId });
    const contribution = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: clerk.contactId,
      financial_type_id: 'Event Fee',
      total_amount: 5,
    });
    const first = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Event Fee',
      total_amount: 5,
    });
    const linked = await crm.api3(admin, 'ParticipantPayment', 'create', {
      participant_id: other.id,
      contribution_id: first.id,
    });
    expect(linked).to.include({ is_error: 0 });
    const seen = await crm.api3(clerk.headers, 'ParticipantPayment', 'get', { participant_id: other.id });
    expect(seen).to.include({ is_error: 0, count: 0 });
    const foreign = await crm.api3(clerk.headers, 'ParticipantPayment', 'create', {
      participant_id: other.id,
      contribution_id: contribution.id,
    });
    expect(foreign, JSON.stringify(foreign)).to.include({ is_error: 1 });
    const mine = await crm.api3(clerk.headers, 'ParticipantPayment', 'create', {
      participant_id: own.id,
      contribution_id: contribution.id,
    });
    expect(mine, JSON.stringify(mine)).to.include({ is_error: 0 });
    const listed = await crm.api3(clerk.headers, 'ParticipantPayment', 'get', { contribution_id: contribution.id });
    expect(Object.values(listed.values).map((row) => row.participant_id)).to.deep.equal([String(own.id)]);
  });
});
