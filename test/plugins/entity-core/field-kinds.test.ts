/**
 * Field kinds every entity inherits, through both APIs over HTTP: option suffixes (`:name`, `:label`) in
 * APIv4 select/where/orderBy/values, JSON fields, JSON-serialized lists, exact money, dates vs timestamps,
 * and dynamic references (`entity_table` + `entity_id`).
 */
import { expect } from 'chai';
import { bootMeetings, type Headers, type Meetings, type Row } from './meetings';

describe('field kinds (entity metadata), over HTTP', function () {
  this.timeout(60000);
  let meetings: Meetings;
  let admin: Headers;
  let first: number;
  let second: number;
  const ids = (rows: Row[]) => rows.map((row) => Number(row.id));

  before(async () => {
    meetings = await bootMeetings();
    admin = (await meetings.userWith('root', ['access CRM', 'view all contacts', 'edit all contacts'])).headers;
    const created = await meetings.api4(admin, 'Meeting', 'create', {
      values: {
        subject: 'Budget review',
        'status_id:name': 'Completed',
        'topics:label': ['Budget', 'Hiring'],
        details: { room: 'B2', seats: [1, 2], remote: true },
        fee: '1234567890123.45',
        meeting_date: '2026-03-01',
        starts_at: '2026-03-01 09:30:00',
      },
    });
    expect(created.error_message, JSON.stringify(created)).to.equal(undefined);
    first = Number(created.values[0].id);
    const other = await meetings.api4(admin, 'Meeting', 'create', {
      values: { subject: 'Kick-off', status_id: 1, topics: ['agenda'], fee: 0.1 },
    });
    second = Number(other.values[0].id);
  });
  after(() => meetings?.t.close());

  describe('APIv4 option suffixes', () => {
    it('values by :name and :label are stored as the option values', async () => {
      const row = (await meetings.api4(admin, 'Meeting', 'get', { where: [['id', '=', first]] })).values[0];
      expect(row).to.include({ status_id: 2 });
      expect(row.topics).to.deep.equal(['budget', 'hiring']);
    });
    it('select field:label / field:name shows the option text (a list for a serialized field)', async () => {
      const rows = await meetings.api4(admin, 'Meeting', 'get', {
        select: ['status_id:label', 'topics:label', 'status_id:name'],
        orderBy: { id: 'ASC' },
      });
      expect(rows.values[0]).to.deep.equal({
        'status_id:label': 'Completed',
        'topics:label': ['Budget', 'Hiring'],
        'status_id:name': 'Completed',
      });
      expect(rows.values[1]['status_id:label']).to.equal('Scheduled');
    });
    it('where on a suffix: =, IN, LIKE, != and CONTAINS on a serialized field', async () => {
      const where = async (clause: unknown[]) =>
        ids(
          (await meetings.api4(admin, 'Meeting', 'get', { select: ['id'], where: [clause], orderBy: { id: 'ASC' } }))
            .values,
        );
      expect(await where(['status_id:name', '=', 'Completed'])).to.deep.equal([first]);
      expect(await where(['status_id:label', 'IN', ['Scheduled', 'Cancelled']])).to.deep.equal([second]);
      expect(await where(['status_id:label', 'LIKE', 'sched%'])).to.deep.equal([second]);
      expect(await where(['status_id:name', '!=', 'Completed'])).to.deep.equal([second]);
      expect(await where(['topics:label', 'CONTAINS', 'Hiring'])).to.deep.equal([first]);
      expect(await where(['status_id:name', '=', 'No such status'])).to.deep.equal([]);
    });
    it('orderBy field:label sorts by the option text, not the stored value', async () => {
      await meetings.api4(admin, 'Meeting', 'create', { values: { subject: 'Called off', status_id: 3 } });
      const rows = await meetings.api4(admin, 'Meeting', 'get', {
        select: ['status_id:label'],
        orderBy: { 'status_id:label': 'ASC' },
      });
      expect(rows.values.map((row) => row['status_id:label'])).to.deep.equal(['Cancelled', 'Completed', 'Scheduled']);
    });
    it('a suffix on a field without options, an unknown suffix or an unknown option is a clear error', async () => {
      const noOptions = await meetings.api4(admin, 'Meeting', 'get', { select: ['subject:label'] });
      expect(noOptions.error_message).to.equal("Field 'subject:label' has no options: it takes no suffix");
      const unknownSuffix = await meetings.api4(admin, 'Meeting', 'get', { select: ['status_id:colour'] });
      expect(unknownSuffix.error_message).to.match(/^Invalid suffix ':colour'/);
      const unknownOption = await meetings.api4(admin, 'Meeting', 'create', {
        values: { subject: 'x', 'status_id:name': 'Nope' },
      });
      expect(unknownOption.error_message).to.equal("'Nope' is not a valid option for 'status_id:name'");
    });
  });

  describe('JSON, money, dates', () => {
    it('a Json field is a structure in APIv4 and JSON text in APIv3; APIv3 writes take JSON text', async () => {
      const v4 = (await meetings.api4(admin, 'Meeting', 'get', { select: ['details'], where: [['id', '=', first]] }))
        .values[0];
      expect(v4.details).to.deep.equal({ room: 'B2', seats: [1, 2], remote: true });
      const v3 = await meetings.api3(admin, 'Meeting', 'getsingle', { id: first, return: 'details' });
      expect(JSON.parse(String(v3.details))).to.deep.equal({ room: 'B2', seats: [1, 2], remote: true });
      const written = await meetings.api3(admin, 'Meeting', 'create', { id: second, details: '{"room":"A1"}' });
      expect(written).to.include({ is_error: 0 });
      const back = await meetings.api4(admin, 'Meeting', 'get', { select: ['details'], where: [['id', '=', second]] });
      expect(back.values[0].details).to.deep.equal({ room: 'A1' });
      const bad = await meetings.api3(admin, 'Meeting', 'create', { id: second, details: '{not json' });
      expect(bad).to.include({ is_error: 1, error_message: 'details is not valid JSON' });
    });
    it('money is exact: 15 significant digits and cents survive both APIs (APIv3 as text)', async () => {
      const v3 = await meetings.api3(admin, 'Meeting', 'getsingle', { id: first, return: 'fee' });
      expect(v3.fee).to.equal('1234567890123.45');
      const v3small = await meetings.api3(admin, 'Meeting', 'getsingle', { id: second, return: 'fee' });
      expect(v3small.fee).to.equal('0.10');
      const sum = await meetings.api3(admin, 'Meeting', 'create', { id: second, fee: '0.30' });
      expect(sum).to.include({ is_error: 0 });
      const bad = await meetings.api4(admin, 'Meeting', 'update', {
        where: [['id', '=', second]],
        values: { fee: '1e3' },
      });
      expect(bad.error_message).to.match(/fee: expected a decimal amount/);
    });
    it('a Date reads as YYYY-MM-DD, a Timestamp as YYYY-MM-DD HH:MM:SS, in both APIs', async () => {
      const v4 = (
        await meetings.api4(admin, 'Meeting', 'get', {
          select: ['meeting_date', 'starts_at'],
          where: [['id', '=', first]],
        })
      ).values[0];
      expect(v4).to.include({ meeting_date: '2026-03-01', starts_at: '2026-03-01 09:30:00' });
      const v3 = await meetings.api3(admin, 'Meeting', 'getsingle', { id: first, return: 'meeting_date,starts_at' });
      expect(v3).to.include({ meeting_date: '2026-03-01', starts_at: '2026-03-01 09:30:00' });
    });
  });

  describe('dynamic references (entity_table + entity_id)', () => {
    it('accept a row of an allowed entity, through both APIs', async () => {
      const v4 = await meetings.api4(admin, 'MeetingLink', 'create', {
        values: { entity_id: first, url: 'https://example.org/a' },
      });
      expect(v4.values[0]).to.include({ entity_table: 'fx_meeting', entity_id: first });
      const contact = Number((await meetings.api4(admin, 'Contact', 'get', { select: ['id'], limit: 1 })).values[0].id);
      const v3 = await meetings.api3(admin, 'MeetingLink', 'create', {
        entity_table: 'crm_contact',
        entity_id: contact,
      });
      expect(v3).to.include({ is_error: 0 });
    });
    it('refuse an unknown or disallowed table and a row that does not exist; nothing is written', async () => {
      const before = (await meetings.api4(admin, 'MeetingLink', 'get', { select: ['row_count'] })).countMatched;
      const table = await meetings.api4(admin, 'MeetingLink', 'create', {
        values: { entity_table: 'crm_nowhere', entity_id: 1 },
      });
      expect(table.error_message).to.equal("'crm_nowhere' is not a valid value for entity_table");
      const disallowed = await meetings.api3(admin, 'MeetingLink', 'create', {
        entity_table: 'fx_meeting_note',
        entity_id: 1,
      });
      expect(disallowed).to.include({
        is_error: 1,
        error_message: "'fx_meeting_note' is not a valid value for entity_table",
      });
      const missing = await meetings.api4(admin, 'MeetingLink', 'create', { values: { entity_id: 999999 } });
      expect(missing.error_message).to.equal('Meeting id 999999 not found (entity_id)');
      expect((await meetings.api4(admin, 'MeetingLink', 'get', { select: ['row_count'] })).countMatched).to.equal(
        before,
      );
    });
  });
});
