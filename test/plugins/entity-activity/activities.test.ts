/** Activity and ActivityContact through APIv3 and APIv4 over HTTP: types by name, contacts (4.4.0), access. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';

describe('entity-activity: Activity and ActivityContact over HTTP', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let adminContact: number;
  let ann: number;
  let bob: number;
  let cy: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-activity'] });
    ({ headers: admin, contactId: adminContact } = await crm.userWith('root', ['*']));
    const contact = async (first: string) =>
      Number(
        (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: first } }))
          .values[0].id,
      );
    ann = await contact('Ann');
    bob = await contact('Bob');
    cy = await contact('Cy');
  });
  after(() => crm?.t.close());

  it('APIv3 create by type name with targets and assignees in ActivityContact (4.4.0); get returns them on request', async () => {
    const made = await crm.api3(admin, 'Activity', 'create', {
      activity_type_id: 'Meeting',
      subject: 'Kick-off',
      status_id: 'Scheduled',
      target_contact_id: [ann, bob],
      assignee_contact_id: cy,
    });
    expect(made.is_error, JSON.stringify(made)).to.equal(0);
    const id = Number(made.id);
    const got = (await crm.api3(admin, 'Activity', 'getsingle', {
      id,
      return: [
        'subject',
        'activity_type_id',
        'status_id',
        'source_contact_id',
        'target_contact_id',
        'assignee_contact_id',
      ],
    })) as Row;
    expect(got).to.include({ subject: 'Kick-off', activity_type_id: '1', status_id: '1' });
    expect(String(got.source_contact_id)).to.equal(String(adminContact));
    expect((got.target_contact_id as unknown[]).map(Number)).to.deep.equal([ann, bob]);
    expect((got.assignee_contact_id as unknown[]).map(Number)).to.deep.equal([cy]);
    const rows = await crm.api4(admin, 'ActivityContact', 'get', {
      where: [['activity_id', '=', id]],
      select: ['contact_id', 'record_type_id:name'],
      orderBy: { id: 'ASC' },
    });
    expect(rows.values.map((row) => [row.contact_id, row['record_type_id:name']])).to.deep.equal([
      [adminContact, 'Activity Source'],
      [ann, 'Activity Targets'],
      [bob, 'Activity Targets'],
      [cy, 'Activity Assignees'],
    ]);
  });

  it('APIv3 default get returns source_contact_id; contact_id finds a contact’s activities in any part', async () => {
    const byTarget = await crm.api3(admin, 'Activity', 'get', { contact_id: bob, sequential: 1 });
    expect(byTarget.count).to.equal(1);
    expect(byTarget.values[0]).to.have.property('source_contact_id');
    expect(byTarget.values[0]).to.not.have.property('target_contact_id');
    expect((await crm.api3(admin, 'Activity', 'get', { contact_id: adminContact })).count).to.equal(1);
  });

  it('APIv3 activity_name and its errors; a missing type and an unknown contact are refused', async () => {
    const byName = await crm.api3(admin, 'Activity', 'create', { activity_name: 'phone Call', target_contact_id: ann });
    expect(byName.is_error, JSON.stringify(byName)).to.equal(0);
    expect(byName.values[byName.id as string]).to.include({ activity_type_id: '2' });
    const unknown = await crm.api3(admin, 'Activity', 'create', { activity_name: 'Seance' });
    expect(unknown).to.include({ is_error: 1, error_message: 'Invalid Activity Name : Seance' });
    const mismatch = await crm.api3(admin, 'Activity', 'create', { activity_name: 'Meeting', activity_type_id: 2 });
    expect(mismatch).to.include({ is_error: 1, error_message: 'Mismatch in Activity' });
    const noContact = await crm.api3(admin, 'Activity', 'create', { activity_type_id: 1, target_contact_id: 999999 });
    expect(noContact).to.include({ is_error: 1, error_message: 'Invalid Contact Id' });
    const noType = await crm.api3(admin, 'Activity', 'create', { subject: 'typeless' });
    expect(noType).to.include({
      is_error: 1,
      error_message:
        'Mandatory key(s) missing from params array: one of (activity_name, activity_type_id, activity_label)',
    });
  });

  it('APIv4: select, filter and join through the contacts; update replaces one part; :name suffixes', async () => {
    const made = await crm.api4(admin, 'Activity', 'create', {
      values: {
        'activity_type_id:name': 'Email',
        subject: 'Follow-up',
        target_contact_id: [cy],
        'status_id:name': 'Completed',
      },
    });
    expect(made.values[0].id, JSON.stringify(made)).to.be.a('number');
    const id = made.values[0].id as number;
    const found = await crm.api4(admin, 'Activity', 'get', {
      select: ['subject', 'activity_type_id:label', 'source_contact_id.display_name', 'target_contact_id'],
      where: [
        ['target_contact_id', 'IN', [cy]],
        ['status_id:name', '=', 'Completed'],
      ],
    });
    expect(found.values).to.have.length(1);
    expect(found.values[0]).to.deep.include({
      subject: 'Follow-up',
      'activity_type_id:label': 'Email',
      target_contact_id: [cy],
    });
    expect(found.values[0]['source_contact_id.display_name']).to.be.a('string');
    await crm.api4(admin, 'Activity', 'update', {
      where: [['id', '=', id]],
      values: { target_contact_id: [ann, bob] },
    });
    const after = await crm.api4(admin, 'Activity', 'get', {
      select: ['target_contact_id', 'source_contact_id'],
      where: [['id', '=', id]],
    });
    expect(after.values[0]).to.deep.equal({ target_contact_id: [ann, bob], source_contact_id: adminContact });
    const without = await crm.api4(admin, 'Activity', 'get', {
      select: ['id'],
      where: [['assignee_contact_id', 'IS EMPTY']],
    });
    expect(without.values.map((row) => row.id)).to.include(id);
    const notAnn = await crm.api4(admin, 'Activity', 'get', {
      select: ['id'],
      where: [['target_contact_id', '!=', ann]],
    });
    expect(notAnn.values.map((row) => row.id)).to.not.include(id);
  });

  it('getfields lists the contact parts; a delete removes the activity and its contacts', async () => {
    const fields = await crm.api3(admin, 'Activity', 'getfields', { action: 'create' });
    expect(fields.values).to.have.property('target_contact_id');
    expect(fields.values).to.have.property('source_contact_id');
    const v4 = await crm.api4(admin, 'Activity', 'getFields', { select: ['name'] });
    expect(v4.values.map((row) => row.name)).to.include.members(PARTIES);
    const made = await crm.api3(admin, 'Activity', 'create', { activity_type_id: 1, target_contact_id: ann });
    expect((await crm.api3(admin, 'Activity', 'delete', { id: made.id })).is_error).to.equal(0);
    const left = await crm.api4(admin, 'ActivityContact', 'get', { where: [['activity_id', '=', Number(made.id)]] });
    expect(left.values).to.deep.equal([]);
  });

  it('permissions (§6.2): creating needs view all activities; a user sees the activities of contacts it may see', async () => {
    const { headers: staff } = await crm.userWith('staff', ['access CRM']);
    const refused = await crm.api3(staff, 'Activity', 'create', { activity_type_id: 1, target_contact_id: ann });
    expect(refused.is_error).to.equal(1);
    // Without view all contacts (and no other rule granting contacts) no activity is visible.
    expect((await crm.api3(staff, 'Activity', 'get', {})).count).to.equal(0);
    const { headers: viewer } = await crm.userWith('viewer', ['access CRM', 'view all contacts']);
    expect(Number((await crm.api3(viewer, 'Activity', 'getcount', {})).result)).to.be.greaterThan(0);
  });
});

const PARTIES = ['source_contact_id', 'target_contact_id', 'assignee_contact_id'];
