/**
 * Compiled reads (plugins/entity-core/read-plans.ts): a read asked again runs the statement it compiled to,
 * but only under the row access it was planned with, and never across a metadata or option change.
 */
import { expect } from 'chai';
import type { EntityStore } from '../../../plugins/entity-core';
import { addMeeting, bootMeetings, type Headers, type Meetings, type Row } from './meetings';

describe('compiled reads are reused only under the same row access', function () {
  this.timeout(60000);
  let meetings: Meetings;
  let ann: { headers: Headers; contactId: number };
  let carl: { headers: Headers; contactId: number };
  let admin: Headers;
  let store: EntityStore;
  const api4 = (who: Headers, entity: string, action: string, params: Row) =>
    meetings.api4(who, entity, action, params);
  const ids = (answer: { values: Row[] }) => answer.values.map((row) => row.id);

  before(async () => {
    // APIv3 JSON answers rendered by PostgreSQL (ADR 0017), so its reads are kept as plans of their own.
    meetings = await bootMeetings({ 'rest-api3': { rowsFromDatabase: true } });
    store = meetings.t.kernel.container.resolve<EntityStore>('entityStore');
    // Same permissions, different contacts: their access answers differ only by the contact id they carry.
    ann = await meetings.userWith('ann', ['access CRM', 'view my contact']);
    carl = await meetings.userWith('carl', ['access CRM', 'view my contact']);
    admin = (await meetings.userWith('root', ['access CRM', 'view all contacts', 'edit all contacts', 'add contacts']))
      .headers;
  });
  after(() => meetings?.t.close());

  const meeting = (subject: string, contacts: number[]) => addMeeting(meetings, admin, subject, contacts);

  it('the same get by callers whose access differs: each sees only their rows, every time', async () => {
    const annOnly = await meeting('Ann only', [ann.contactId]);
    const carlOnly = await meeting('Carl only', [carl.contactId]);
    const params = { select: ['id', 'subject'], where: [['id', 'IN', [annOnly, carlOnly]]], orderBy: { id: 'ASC' } };
    for (let round = 0; round < 2; round++) {
      expect(ids(await api4(ann.headers, 'Meeting', 'get', params))).to.deep.equal([annOnly]);
      expect(ids(await api4(carl.headers, 'Meeting', 'get', params))).to.deep.equal([carlOnly]);
      expect(ids(await api4(admin, 'Meeting', 'get', params))).to.deep.equal([annOnly, carlOnly]);
    }
  });

  it('an APIv3 get (rows rendered by PostgreSQL) is kept apart from APIv4 and under the same access rules', async () => {
    const annOnly = await meeting('Ann in v3', [ann.contactId]);
    const carlOnly = await meeting('Carl in v3', [carl.contactId]);
    const v3 = { id: { IN: [annOnly, carlOnly] }, return: ['id', 'subject'], options: { sort: 'id ASC' } };
    const v3ids = async (who: Headers) => Object.keys((await meetings.api3(who, 'Meeting', 'get', v3)).values as Row);
    const v4 = { select: ['id', 'subject'], where: [['id', 'IN', [annOnly, carlOnly]]], orderBy: { id: 'ASC' } };
    for (let round = 0; round < 2; round++) {
      expect(await v3ids(ann.headers)).to.deep.equal([String(annOnly)]);
      expect(await v3ids(carl.headers)).to.deep.equal([String(carlOnly)]);
      // APIv3 strings, APIv4 numbers: one query, two statements kept.
      const both = (await meetings.api3(admin, 'Meeting', 'get', v3)).values as Record<string, Row>;
      expect(both[String(annOnly)]).to.deep.equal({ id: String(annOnly), subject: 'Ann in v3' });
      expect(ids(await api4(admin, 'Meeting', 'get', v4))).to.deep.equal([annOnly, carlOnly]);
    }
  });

  it("a join's own access is compared too: a hidden meeting reads as NULL for one caller, not for another", async () => {
    const hidden = await meeting('Carl and the board', [carl.contactId]);
    const params = { select: ['note', 'meeting_id.subject'], where: [['meeting_id', '=', hidden]] };
    const subjects = async (who: Headers) =>
      (await api4(who, 'MeetingNote', 'get', params)).values.map((row) => row['meeting_id.subject']);
    for (let round = 0; round < 2; round++) {
      // Notes are open to all here; their meeting is not: Ann reads the note, its meeting as NULL.
      expect(await subjects(carl.headers)).to.deep.equal(['Carl and the board']);
      expect(await subjects(ann.headers)).to.deep.equal([null]);
      expect(await subjects(admin)).to.deep.equal(['Carl and the board']);
    }
  });

  it('a read asked again is not planned again; a metadata or option change forgets every plan', async () => {
    const params = { select: ['id', 'subject'], where: [['subject', 'LIKE', 'plans-%']] };
    await api4(admin, 'Meeting', 'get', params);
    const kept = store.plans.size;
    await api4(admin, 'Meeting', 'get', params);
    expect(store.plans.size).to.equal(kept);
    await api4(admin, 'Meeting', 'get', { ...params, limit: 5 });
    expect(store.plans.size).to.equal(kept + 1);
    // A long query (thousands of ids) is planned every time: its key and statement are not kept.
    const ids = Array.from({ length: 2000 }, (_, i) => i + 1);
    await api4(admin, 'Meeting', 'get', { ...params, where: [['id', 'IN', ids]] });
    expect(store.plans.size).to.equal(kept + 1);
    store.registry.invalidateOptions(); // what run-time metadata changes and option writes (any instance) do
    await api4(admin, 'Meeting', 'get', params);
    expect(store.plans.size).to.equal(1);
  });
});
