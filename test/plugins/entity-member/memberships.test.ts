/** Memberships over HTTP: dates from the type (rolling, fixed, rollover), status rules, overrides, renewals. */
import { expect } from 'chai';
import { addUnits, today } from '../../../plugins/entity-member';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-member: Membership over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;
  let org: number;
  const types: Record<string, number> = {};
  const now = today();
  const plus = (unit: string, count: number, from = now) => addUnits(from, unit, count);

  const makeType = async (name: string, values: Row) => {
    const made = await crm.api3(admin, 'MembershipType', 'create', {
      name,
      member_of_contact_id: org,
      financial_type_id: 'Member Dues',
      duration_unit: 'year',
      duration_interval: 1,
      period_type: 'rolling',
      ...values,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    types[name] = Number(made.id);
  };
  const create = (params: Row) => crm.api3(admin, 'Membership', 'create', { contact_id: ann, ...params });
  const stored = async (id: unknown) =>
    (
      await crm.api4(admin, 'Membership', 'get', {
        select: ['join_date', 'start_date', 'end_date', 'status_id:name', 'is_override'],
        where: [['id', '=', Number(id)]],
      })
    ).values[0] as Row;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const person = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Ann' },
    });
    ann = Number(person.values[0].id);
    const club = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Organization', organization_name: 'Club' },
    });
    org = Number(club.values[0].id);
    await makeType('General', { minimum_fee: '100.5' });
    await makeType('Fixed Year', {
      period_type: 'fixed',
      fixed_period_start_day: 101,
      fixed_period_rollover_day: 1001,
    });
    await makeType('Fixed Month', {
      period_type: 'fixed',
      duration_unit: 'month',
      fixed_period_start_day: 1,
      fixed_period_rollover_day: 20,
    });
    await makeType('Lifetime', { duration_unit: 'lifetime' });
  });
  after(() => crm?.t.close());

  it('seeds the reference statuses and their rules (New, Current, Grace, Expired, Pending, Cancelled, Deceased)', async () => {
    const got = await crm.api4(admin, 'MembershipStatus', 'get', { orderBy: { weight: 'ASC' } });
    expect(got.values.map((s: Row) => s.name)).to.deep.equal([
      'New',
      'Current',
      'Grace',
      'Expired',
      'Pending',
      'Cancelled',
      'Deceased',
    ]);
    expect(got.values[0]).to.include({
      start_event: 'join_date',
      end_event: 'join_date',
      end_event_adjust_unit: 'month',
      end_event_adjust_interval: 3,
      is_current_member: true,
    });
    expect(got.values[3]).to.include({
      start_event: 'end_date',
      start_event_adjust_unit: 'month',
      is_current_member: false,
    });
    expect(got.values[6]).to.include({ is_admin: true, is_reserved: true, start_event: null });
  });

  it('MembershipType: financial type by name, minimum fee as an exact decimal, title from the name', async () => {
    const got = await crm.api3(admin, 'MembershipType', 'getsingle', { id: types.General });
    expect(got, JSON.stringify(got)).to.include({ name: 'General', title: 'General', minimum_fee: '100.500000000' });
    const v4 = await crm.api4(admin, 'MembershipType', 'get', {
      select: ['financial_type_id:name', 'minimum_fee'],
      where: [['id', '=', types.General]],
    });
    expect(v4.values[0]).to.include({ 'financial_type_id:name': 'Member Dues', minimum_fee: 100.5 });
  });

  it('rolling: start at the join date, end a term later less a day, status calculated (Expired)', async () => {
    const made = await create({ membership_type_id: 'General', join_date: '2020-01-15' });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    expect(await stored(made.id)).to.include({
      join_date: '2020-01-15',
      start_date: '2020-01-15',
      end_date: '2021-01-14',
      'status_id:name': 'Expired',
    });
  });

  it('rolling without dates: joins today, status New', async () => {
    const made = await create({ membership_type: 'General' });
    expect(await stored(made.id)).to.include({
      join_date: now,
      start_date: now,
      end_date: plus('day', -1, plus('year', 1)),
      'status_id:name': 'New',
    });
  });

  it('num_terms on create: the end date covers that many terms', async () => {
    const made = await create({ membership_type_id: types.General, join_date: '2024-02-29', num_terms: 2 });
    expect(await stored(made.id)).to.include({ start_date: '2024-02-29', end_date: '2026-02-28' });
  });

  it('fixed annual: the period starts on fixed_period_start_day; joining after the rollover day adds a period', async () => {
    const early = await create({ membership_type_id: 'Fixed Year', join_date: '2024-03-10' });
    expect(await stored(early.id)).to.include({
      join_date: '2024-03-10',
      start_date: '2024-01-01',
      end_date: '2024-12-31',
    });
    const late = await create({ membership_type_id: 'Fixed Year', join_date: '2024-11-15' });
    expect(await stored(late.id)).to.include({ start_date: '2024-01-01', end_date: '2025-12-31' });
  });

  it('fixed monthly: starts on the 1st; on or after the rollover day the end moves a month on', async () => {
    const early = await create({ membership_type_id: 'Fixed Month', join_date: '2024-03-10' });
    expect(await stored(early.id)).to.include({ start_date: '2024-03-01', end_date: '2024-03-31' });
    const late = await create({ membership_type_id: 'Fixed Month', join_date: '2024-03-25' });
    expect(await stored(late.id)).to.include({ start_date: '2024-03-01', end_date: '2024-04-30' });
  });

  it('lifetime: no end date; joined six months ago it is Current', async () => {
    const made = await create({ membership_type_id: 'Lifetime', join_date: plus('month', -6) });
    expect(await stored(made.id)).to.include({ 'status_id:name': 'Current' });
    expect((await stored(made.id)).end_date).to.equal(null);
  });

  it('status rules: Current inside the term, Grace within a month of its end', async () => {
    const current = await create({ membership_type_id: 'General', join_date: plus('month', -6) });
    expect(await stored(current.id)).to.include({ 'status_id:name': 'Current' });
    const grace = await create({
      membership_type_id: 'General',
      join_date: plus('year', -2),
      start_date: plus('year', -1),
      end_date: plus('day', -10),
    });
    expect(await stored(grace.id)).to.include({ 'status_id:name': 'Grace' });
  });

  it('a join date in the future has no status: refused with the reference message', async () => {
    const made = await create({ membership_type_id: 'General', join_date: plus('month', 2) });
    expect(made).to.include({ is_error: 1 });
    expect(String(made.error_message)).to.match(/no valid membership status/);
  });

  it('is_override keeps the status given (and needs one); skipStatusCal stores it as given', async () => {
    const missing = await create({ membership_type_id: 'General', is_override: 1 });
    expect(missing).to.include({ is_error: 1, error_message: 'Status ID required' });
    const held = await create({ membership_type_id: 'General', is_override: 1, status_id: 'Deceased' });
    expect(await stored(held.id)).to.include({ 'status_id:name': 'Deceased', is_override: true });
    const pending = await create({ membership_type_id: 'General', skipStatusCal: 1, status_id: 'Pending' });
    expect(await stored(pending.id)).to.include({ 'status_id:name': 'Pending' });
    const without = await create({ membership_type_id: 'General', skipStatusCal: 1 });
    expect(without).to.include({ is_error: 1 });
  });

  it('renewal of a current membership: num_terms moves the end date on from the current end, logged', async () => {
    const made = await create({ membership_type_id: 'General', join_date: plus('month', -6) });
    const before = await stored(made.id);
    const renewed = await crm.api3(admin, 'Membership', 'create', { id: made.id, num_terms: 2 });
    expect(renewed, JSON.stringify(renewed)).to.include({ is_error: 0 });
    expect(await stored(made.id)).to.include({
      start_date: before.start_date,
      join_date: before.join_date,
      end_date: plus('year', 2, String(before.end_date)),
      'status_id:name': 'Current',
    });
    const log = await crm.api4(admin, 'MembershipLog', 'get', {
      select: ['end_date', 'status_id:name', 'modified_id', 'modified_date'],
      where: [['membership_id', '=', Number(made.id)]],
      orderBy: { id: 'ASC' },
    });
    expect(log.values.map((entry: Row) => entry.end_date)).to.deep.equal([
      before.end_date,
      plus('year', 2, String(before.end_date)),
    ]);
    expect(log.values[1]).to.include({ 'status_id:name': 'Current', modified_date: now });
    expect(log.values[1].modified_id).to.be.a('number');
    await crm.api3(admin, 'Membership', 'create', { id: made.id, source: 'no new log for this' });
    expect((await crm.api3(admin, 'MembershipLog', 'getcount', { membership_id: made.id })).result).to.equal(2);
  });

  it('renewal of an expired membership starts a new term today, keeping the join date', async () => {
    const made = await create({ membership_type_id: 'General', join_date: '2019-05-01' });
    const renewed = await crm.api3(admin, 'Membership', 'create', { id: made.id, num_terms: 1, skipStatusCal: 0 });
    expect(renewed, JSON.stringify(renewed)).to.include({ is_error: 0 });
    expect(await stored(made.id)).to.include({
      join_date: '2019-05-01',
      start_date: now,
      end_date: plus('day', -1, plus('year', 1)),
      'status_id:name': 'Current',
    });
  });

  it('APIv4: get with a filter and joins, update, delete; bad dates refused', async () => {
    const made = await crm.api4(admin, 'Membership', 'create', {
      values: { contact_id: ann, membership_type_id: types.Lifetime, join_date: now, source: 'v4' },
    });
    const id = Number(made.values[0].id);
    const got = await crm.api4(admin, 'Membership', 'get', {
      select: ['contact_id.display_name', 'membership_type_id.name', 'status_id:label'],
      where: [
        ['membership_type_id.name', '=', 'Lifetime'],
        ['source', '=', 'v4'],
      ],
    });
    expect(got.values).to.have.length(1);
    expect(got.values[0]).to.include({
      'contact_id.display_name': 'Ann',
      'membership_type_id.name': 'Lifetime',
      'status_id:label': 'New',
    });
    await crm.api4(admin, 'Membership', 'update', { where: [['id', '=', id]], values: { source: 'changed' } });
    expect((await crm.api3(admin, 'Membership', 'getsingle', { id })).source).to.equal('changed');
    const bad = await crm.api3(admin, 'Membership', 'create', { id, end_date: 'not a date' });
    expect(bad).to.include({ is_error: 1 });
    await crm.api4(admin, 'Membership', 'delete', { where: [['id', '=', id]] });
    expect((await crm.api3(admin, 'Membership', 'get', { id })).count).to.equal(0);
  });

  it('getfields lists the reference fields, aliases and the create-time params', async () => {
    const fields = await crm.api3(admin, 'Membership', 'getfields', { action: 'create' });
    expect(fields.values).to.include.keys('membership_type_id', 'status_id', 'join_date', 'is_override');
    const v4 = await crm.api4(admin, 'MembershipStatus', 'getFields', { select: ['name'] });
    expect(v4.values.map((f: Row) => f.name)).to.include.members([
      'start_event',
      'end_event_adjust_interval',
      'is_admin',
    ]);
  });

  it('permissions: access memberships to read, edit memberships to write; a member sees only their own', async () => {
    const reader = await crm.userWith('member-reader', ['access CRM', 'access memberships', 'view my contact']);
    const mine = await create({ contact_id: reader.contactId, membership_type_id: 'General' });
    const seen = await crm.api3(reader.headers, 'Membership', 'get', {});
    expect(Object.keys(seen.values)).to.deep.equal([String(mine.id)]);
    const write = await crm.api3(reader.headers, 'Membership', 'create', {
      contact_id: reader.contactId,
      membership_type_id: 'General',
    });
    expect(write).to.include({ is_error: 1 });
    const compat = await crm.userWith('civi-member', ['access CiviCRM', 'access CiviMember', 'view all contacts']);
    expect((await crm.api3(compat.headers, 'Membership', 'get', { options: { limit: 0 } })).is_error).to.equal(0);
  });

  it('Job.process_membership recalculates statuses that the dates have moved on from', async () => {
    const made = await create({ membership_type_id: 'General', join_date: plus('month', -6) });
    await crm.api3(admin, 'Membership', 'create', { id: made.id, status_id: 'New' });
    expect(await stored(made.id)).to.include({ 'status_id:name': 'New' });
    const run = await crm.api3(admin, 'Job', 'process_membership', {});
    expect(run, JSON.stringify(run)).to.include({ is_error: 0 });
    expect(await stored(made.id)).to.include({ 'status_id:name': 'Current' });
  });
});
