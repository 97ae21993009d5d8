import { expect } from 'chai';
import { bootTestKernel, sqlDuring } from '../../../host/testing';
import { ADMIN, ENGINE_PLUGINS, FIXTURES, bootEngine, type Engine } from './helpers';

const statements = (e: Engine, fn: () => Promise<unknown>) => sqlDuring(e.t.kernel.db, fn);

describe('api3 create/update statements (issue 6: no re-reads, names computed before the write)', () => {
  let engine: Engine;
  before(async () => {
    engine = await bootEngine();
    // Warm the option caches (contact_type options, location types), as a running server has them.
    await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Warm',
      last_name: 'Up',
      email: 'warm@example.org',
    });
  });
  after(async () => engine?.t.close());

  it('a plain create is BEGIN, one INSERT … RETURNING, COMMIT: names come with the insert, no follow-up UPDATE or SELECT', async () => {
    let result: any;
    const sqls = await statements(engine, async () => {
      result = await engine.call('Contact', 'create', {
        contact_type: 'Individual',
        first_name: 'Bench',
        last_name: 'Mark',
      });
    });
    expect(sqls).to.have.length(3);
    expect(sqls[0]).to.match(/^begin/i);
    expect(sqls[1]).to.match(/^insert into "crm_contact" .* returning /i);
    expect(sqls[2]).to.match(/^commit/i);
    const saved = result.values[String(result.id)];
    expect(saved).to.include({
      id: String(result.id),
      display_name: 'Bench Mark',
      sort_name: 'Mark, Bench',
      contact_type: 'Individual',
      is_deleted: '0',
      contact_sub_type: '',
    });
    expect(saved.hash).to.match(/^[0-9a-f]{32}$/);
    expect(saved.created_date).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // The returned record is the stored row, as a read gives it.
    const got = await engine.call('Contact', 'getsingle', {
      id: result.id,
      return: ['display_name', 'sort_name', 'hash', 'created_date', 'modified_date', 'do_not_email', 'is_opt_out'],
    });
    for (const k of [
      'display_name',
      'sort_name',
      'hash',
      'created_date',
      'modified_date',
      'do_not_email',
      'is_opt_out',
    ])
      expect(saved[k], k).to.equal(got[k]);
  });

  it('email on create still makes the primary email (more statements, only when an email is given)', async () => {
    let r: any;
    const sqls = await statements(engine, async () => {
      r = await engine.call('Contact', 'create', { contact_type: 'Individual', email: 'Solo@Example.org' });
    });
    expect(sqls.length).to.be.greaterThan(3);
    expect(r.values[String(r.id)]).to.include({ display_name: 'solo@example.org', sort_name: 'solo@example.org' });
    const emails = await engine.call('Email', 'get', { contact_id: r.id, sequential: 1 });
    expect(emails.values.map((x: any) => [x.email, x.is_primary])).to.deep.equal([['solo@example.org', '1']]);
  });

  it('primary rules still hold: a first phone is primary; a second primary phone clears the first', async () => {
    const c = await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Pho',
      last_name: 'Ne',
    });
    const p1 = await engine.call('Phone', 'create', { contact_id: c.id, phone: '555-0001' });
    expect(p1.values[String(p1.id)]).to.include({ is_primary: '1', phone_numeric: '5550001' });
    const p2 = await engine.call('Phone', 'create', { contact_id: c.id, phone: '555-0002', is_primary: 1 });
    expect(p2.values[String(p2.id)]).to.include({ is_primary: '1' });
    const phones = await engine.call('Phone', 'get', { contact_id: c.id, sequential: 1, options: { sort: 'id' } });
    expect(phones.values.map((x: any) => x.is_primary)).to.deep.equal(['0', '1']);
  });

  it('an update is BEGIN, the existing row, one UPDATE … RETURNING, COMMIT; it returns the recomputed names', async () => {
    const created = await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Jane',
      last_name: 'Doe',
    });
    let result: any;
    const sqls = await statements(engine, async () => {
      result = await engine.call('Contact', 'create', { id: created.id, last_name: 'Roe' });
    });
    expect(sqls).to.have.length(4);
    expect(sqls[2]).to.match(/^update "crm_contact" .* returning /i);
    expect(result.values[String(created.id)]).to.include({
      first_name: 'Jane',
      last_name: 'Roe',
      display_name: 'Jane Roe',
      sort_name: 'Roe, Jane',
    });
    const got = await engine.call('Contact', 'getsingle', {
      id: created.id,
      return: ['modified_date', 'display_name'],
    });
    expect(result.values[String(created.id)]).to.include({
      modified_date: got.modified_date,
      display_name: got.display_name,
    });
  });

  it('when an afterSave hook changes the saved row with SQL, create returns the row as stored afterwards', async () => {
    const booted = await bootTestKernel({
      plugins: [...ENGINE_PLUGINS, 'after-save-touch'],
      pluginDirs: [FIXTURES],
      logLevel: 'warn',
    });
    try {
      const api3 = async (params: Record<string, unknown>) =>
        (await booted.kernel.call({ entity: 'Contact', action: 'create', params, principal: ADMIN })) as any;
      const touched = await api3({ contact_type: 'Individual', first_name: 'T', source: 'touch' });
      expect(touched.values[String(touched.id)]).to.include({ nick_name: 'touched by afterSave', display_name: 'T' });
      const plain = await api3({ contact_type: 'Individual', first_name: 'U', source: 'other' });
      expect(plain.values[String(plain.id)]).to.include({ nick_name: '', display_name: 'U' });
      const updated = await api3({ id: plain.id, source: 'touch' });
      expect(updated.values[String(plain.id)]).to.include({ nick_name: 'touched by afterSave', source: 'touch' });
    } finally {
      await booted.close();
    }
  });
});
