/**
 * Row access as SQL conditions (entity.access answers `{where}`): records tied to many contacts, through
 * EXISTS, applied by both APIs over HTTP to reads, counts, joins, chains, writes and checkAccess.
 */
import { expect } from 'chai';
import { addMeeting, bootMeetings, type Headers, type Meetings, type Row } from './meetings';

describe('row access as conditions (entity.access {where}, EXISTS), over HTTP', function () {
  this.timeout(60000);
  let meetings: Meetings;
  let member: Headers;
  let admin: Headers;
  let ann: number;
  let bob: number;
  let shared: number;
  let hidden: number;
  const userWith = (name: string, permissions: string[]) => meetings.userWith(name, permissions);
  const api4 = (who: Headers, entity: string, action: string, params: Row) =>
    meetings.api4(who, entity, action, params);
  const api3 = (who: Headers, entity: string, action: string, params: Row) =>
    meetings.api3(who, entity, action, params);

  before(async () => {
    meetings = await bootMeetings();
    const annUser = await userWith('ann', ['access CRM', 'view my contact']);
    member = annUser.headers;
    ann = annUser.contactId;
    const root = await userWith('root', ['access CRM', 'view all contacts', 'edit all contacts', 'add contacts']);
    admin = root.headers;
    bob = root.contactId;
    const meeting = (subject: string, contacts: number[]) => addMeeting(meetings, admin, subject, contacts);
    shared = await meeting('Planning', [ann, bob]);
    hidden = await meeting('Board only', [bob]);
  });
  after(() => meetings?.t.close());

  it('APIv4 get and APIv3 get/getcount show only the meetings the caller is tied to', async () => {
    const v4 = await api4(member, 'Meeting', 'get', { select: ['id', 'subject'] });
    expect(v4.values.map((row: Row) => row.id)).to.deep.equal([shared]);
    expect((await api4(admin, 'Meeting', 'get', {})).values).to.have.length(2);
    const v3 = await api3(member, 'Meeting', 'get', { sequential: 1 });
    expect(v3.values.map((row: Row) => Number(row.id))).to.deep.equal([shared]);
    expect(await api3(member, 'Meeting', 'getcount', {})).to.include({ is_error: 0, result: 1 });
  });

  it('a rule may nest EXISTS: attendance rows follow their meeting', async () => {
    const rows = await api4(member, 'MeetingContact', 'get', { select: ['meeting_id', 'contact_id'] });
    expect(rows.values.map((row: Row) => row.meeting_id)).to.deep.equal([shared, shared]);
  });

  it('joins apply the joined entity rule: a hidden meeting reads as NULL through MeetingNote', async () => {
    const notes = await api4(member, 'MeetingNote', 'get', {
      select: ['note', 'meeting_id.subject'],
      orderBy: { id: 'ASC' },
    });
    expect(notes.values.map((row: Row) => row['meeting_id.subject'])).to.deep.equal(['Planning', null]);
    const filtered = await api4(member, 'MeetingNote', 'get', { where: [['meeting_id.subject', 'LIKE', '%']] });
    expect(filtered.values).to.have.length(1);
  });

  it('chains keep applying it (APIv3 api.X.get, APIv4 chain)', async () => {
    const v3 = await api3(member, 'MeetingNote', 'get', {
      sequential: 1,
      'api.Meeting.get': { id: '$value.meeting_id' },
    });
    expect(v3.values.map((row: Row) => (row['api.Meeting.get'] as Row).count)).to.deep.equal([1, 0]);
    const v4 = await api4(member, 'MeetingNote', 'get', {
      orderBy: { id: 'ASC' },
      chain: { meeting: ['Meeting', 'get', { where: [['id', '=', '$meeting_id']] }] },
    });
    expect(v4.values.map((row: Row) => (row.meeting as Row[]).length)).to.deep.equal([1, 0]);
  });

  it('writes: the stored row and the proposed one must both pass (EXISTS included)', async () => {
    const writer = (await userWith('writer', ['access CRM', 'view my contact'])).headers;
    const writerId = Number((await api4(writer, 'Contact', 'get', { select: ['id'] })).values[0]?.id);
    await api4(admin, 'MeetingContact', 'create', { values: { meeting_id: shared, contact_id: writerId } });
    const refused = await api4(writer, 'Meeting', 'update', { where: [['id', '=', hidden]], values: { subject: 'x' } });
    expect(refused.values ?? []).to.deep.equal([]);
    const direct = await api3(writer, 'Meeting', 'create', { id: hidden, subject: 'stolen' });
    expect(direct).to.include({ is_error: 1 });
    expect((await api4(admin, 'Meeting', 'get', { where: [['id', '=', hidden]] })).values[0].subject).to.equal(
      'Board only',
    );
    // Joining a hidden meeting: the proposed attendance row fails the nested EXISTS.
    const join = await api3(writer, 'MeetingContact', 'create', { meeting_id: hidden, contact_id: writerId });
    expect(join).to.include({ is_error: 1, error_message: 'Permission denied to modify contact record' });
    const ok = await api3(writer, 'Meeting', 'create', { id: shared, subject: 'Planning (moved)' });
    expect(ok).to.include({ is_error: 0 });
    // Moving one's own attendance row onto the hidden meeting is refused too.
    const mine = await api4(writer, 'MeetingContact', 'get', { where: [['contact_id', '=', writerId]] });
    const moved = await api3(writer, 'MeetingContact', 'create', { id: mine.values[0].id, meeting_id: hidden });
    expect(moved).to.include({ is_error: 1 });
  });

  it('APIv4 checkAccess answers from the same conditions', async () => {
    const ask = async (action: string, values: Row) =>
      (await api4(member, 'MeetingContact', 'checkAccess', { action, values })).values[0].access;
    expect(await ask('create', { meeting_id: shared, contact_id: ann })).to.equal(true);
    expect(await ask('create', { meeting_id: hidden, contact_id: ann })).to.equal(false);
    const meetingAccess = async (id: number) =>
      (await api4(member, 'Meeting', 'checkAccess', { action: 'update', values: { id } })).values[0].access;
    expect(await meetingAccess(shared)).to.equal(true);
    expect(await meetingAccess(hidden)).to.equal(false);
  });
});
