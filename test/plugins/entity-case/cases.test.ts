/** Case over HTTP: the 4.5.0 machine name, the Open Case timeline and roles, get, update, trash and delete. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-case: Case over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let adminContact: number;
  let ann: number;
  let bob: number;

  before(async () => {
    crm = await bootCrm();
    ({ headers: admin, contactId: adminContact } = await crm.userWith('root', ['*']));
    const person = async (name: string) =>
      Number(
        (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: name } }))
          .values[0].id,
      );
    ann = await person('Ann');
    bob = await person('Bob');
  });
  after(() => crm?.t.close());

  const caseActivities = async (caseId: number) =>
    (
      await crm.api4(admin, 'CaseActivity', 'get', {
        select: [
          'activity_id',
          'activity_id.activity_type_id:name',
          'activity_id.status_id:name',
          'activity_id.subject',
        ],
        where: [['case_id', '=', caseId]],
        orderBy: { id: 'ASC' },
      })
    ).values as Row[];

  it('4.5.0 APIv3 create takes case_type as the machine name; clients become CaseContact rows', async () => {
    const made = await crm.api3(admin, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: [ann, bob],
      subject: 'Needs a roof',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const row = made.values[String(made.id)];
    expect(row).to.include({ subject: 'Needs a roof', status_id: '1' });
    expect(row.start_date).to.equal(new Date().toISOString().slice(0, 10));
    const clients = await crm.api4(admin, 'CaseContact', 'get', { where: [['case_id', '=', made.id]] });
    expect(clients.values.map((client: Row) => client.contact_id).sort()).to.deep.equal([ann, bob].sort());
    const typed = await crm.api4(admin, 'Case', 'get', {
      select: ['case_type_id.name', 'case_type_id.title', 'contact_id'],
      where: [['id', '=', made.id]],
    });
    expect(typed.values[0]).to.include({
      'case_type_id.name': 'housing_support',
      'case_type_id.title': 'Housing Support',
    });
  });

  it('4.5.0 APIv3 create: a title still names the case type (deprecated); an unknown name is refused', async () => {
    const byTitle = await crm.api3(admin, 'Case', 'create', {
      case_type: 'Adult Day Care Referral',
      contact_id: ann,
      subject: 'By title',
    });
    expect(byTitle, JSON.stringify(byTitle)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Case', 'get', {
      select: ['case_type_id:name'],
      where: [['id', '=', byTitle.id]],
    });
    expect(got.values[0]['case_type_id:name']).to.equal('adult_day_care_referral');
    const unknown = await crm.api3(admin, 'Case', 'create', { case_type: 'nope', contact_id: ann, subject: 'x' });
    expect(unknown).to.include({ is_error: 1 });
    expect(String(unknown.error_message)).to.match(/Invalid case_type: nope/);
    const stranger = await crm.api3(admin, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: 99999,
      subject: 'x',
    });
    expect(stranger).to.include({ is_error: 1, error_message: 'Invalid Contact Id' });
    const missing = await crm.api3(admin, 'Case', 'create', { contact_id: ann });
    expect(missing).to.include({ is_error: 1 });
    expect(String(missing.error_message)).to.match(/subject, one of \(case_type, case_type_id\)/);
  });

  it('create files the standard timeline (Open Case completed) and gives the creator the case role', async () => {
    const made = await crm.api3(admin, 'Case', 'create', {
      case_type_id: 'adult_day_care_referral',
      client_id: ann,
      subject: 'Day care',
      start_date: '2026-01-10',
      details: 'first visit',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const activities = await caseActivities(Number(made.id));
    expect(activities.map((activity) => activity['activity_id.activity_type_id:name'])).to.deep.equal([
      'Open Case',
      'Medical evaluation',
      'Mental health evaluation',
      'ADC referral',
      'Follow up',
    ]);
    expect(activities[0]).to.include({ 'activity_id.status_id:name': 'Completed', 'activity_id.subject': 'Day care' });
    expect(activities[1]).to.include({ 'activity_id.status_id:name': 'Scheduled' });
    const open = await crm.api4(admin, 'Activity', 'get', {
      select: ['source_contact_id', 'target_contact_id', 'activity_date_time', 'details'],
      where: [['id', '=', activities[0].activity_id]],
    });
    expect(open.values[0]).to.deep.include({
      source_contact_id: adminContact,
      target_contact_id: [ann],
      details: 'first visit',
    });
    const adc = await crm.api4(admin, 'Activity', 'get', {
      select: ['activity_date_time'],
      where: [['id', '=', activities[3].activity_id]],
    });
    expect(String(adc.values[0].activity_date_time)).to.match(/^2026-01-20/);
    const roles = await crm.api4(admin, 'Relationship', 'get', {
      select: ['contact_id_a', 'contact_id_b', 'relationship_type_id.name_b_a'],
      where: [['case_id', '=', made.id]],
    });
    expect(roles.values).to.deep.equal([
      {
        contact_id_a: ann,
        contact_id_b: adminContact,
        'relationship_type_id.name_b_a': 'Senior Services Coordinator',
      },
    ]);
  });

  it('APIv3 get returns the clients by default, activities by id or through return, and filters by client', async () => {
    const made = await crm.api3(admin, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: bob,
      subject: 'Get me',
    });
    const list = await crm.api3(admin, 'Case', 'get', { contact_id: bob, sequential: 1 });
    expect(list, JSON.stringify(list)).to.include({ is_error: 0 });
    const mine = list.values.find((row: Row) => String(row.id) === String(made.id)) as Row;
    expect(mine.contact_id).to.deep.equal([String(bob)]);
    expect(mine).not.to.have.property('activities');
    const byId = await crm.api3(admin, 'Case', 'get', { id: made.id });
    const activities = byId.values[String(made.id)].activities as unknown[];
    expect(activities).to.have.length(8);
    const returned = await crm.api3(admin, 'Case', 'get', { id: made.id, return: ['subject', 'activities'] });
    expect(returned.values[String(made.id)]).to.include.keys('subject', 'activities');
    const byActivity = await crm.api3(admin, 'Case', 'get', { activity_id: activities[0], sequential: 1 });
    expect(byActivity.values.map((row: Row) => String(row.id))).to.deep.equal([String(made.id)]);
  });

  it('create with an id updates; the creator cannot be changed', async () => {
    const made = await crm.api3(admin, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: ann,
      subject: 'Old',
    });
    const updated = await crm.api3(admin, 'Case', 'create', { id: made.id, subject: 'New', status_id: 'Closed' });
    expect(updated, JSON.stringify(updated)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Case', 'get', {
      select: ['subject', 'status_id:label'],
      where: [['id', '=', made.id]],
    });
    expect(got.values[0]).to.include({ subject: 'New', 'status_id:label': 'Resolved' });
    expect(await caseActivities(Number(made.id))).to.have.length(8);
    const creator = await crm.api3(admin, 'Case', 'create', { id: made.id, creator_id: ann });
    expect(creator).to.include({ is_error: 1, error_message: 'You cannot update creator id' });
  });

  it('APIv3 delete with move_to_trash marks it deleted; without, it goes with its activities and roles', async () => {
    const made = await crm.api3(admin, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: ann,
      subject: 'Bin',
    });
    const ids = (await caseActivities(Number(made.id))).map((activity) => activity.activity_id);
    const trashed = await crm.api3(admin, 'Case', 'delete', { id: made.id, move_to_trash: 1 });
    expect(trashed, JSON.stringify(trashed)).to.include({ is_error: 0 });
    const inTrash = await crm.api4(admin, 'Case', 'get', { select: ['is_deleted'], where: [['id', '=', made.id]] });
    expect(inTrash.values[0]).to.include({ is_deleted: true });
    const gone = await crm.api4(admin, 'Case', 'delete', { where: [['id', '=', made.id]] });
    expect(gone, JSON.stringify(gone)).to.have.property('count', 1);
    expect((await crm.api4(admin, 'Case', 'get', { where: [['id', '=', made.id]] })).values).to.have.length(0);
    const left = await crm.api4(admin, 'Activity', 'get', { where: [['id', 'IN', ids]] });
    expect(left.values).to.have.length(0);
    expect(
      (await crm.api4(admin, 'Relationship', 'get', { where: [['case_id', '=', made.id]] })).values,
    ).to.have.length(0);
  });

  it('getfields lists the clients and the reference fields in both APIs', async () => {
    const v3 = await crm.api3(admin, 'Case', 'getfields', { action: 'create' });
    expect(v3.values).to.include.keys('case_type_id', 'subject', 'status_id', 'contact_id', 'start_date');
    const v4 = await crm.api4(admin, 'Case', 'getFields', { select: ['name'] });
    expect(v4.values.map((field: Row) => field.name)).to.include.members(['case_type_id', 'contact_id', 'is_deleted']);
  });
});
