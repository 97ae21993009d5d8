/** Entity.get (both APIs), Extension.get (4.7.13: all information by default) and Domain.get over HTTP. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('Entity.get, Extension.get, Domain.get, System.check, System.flush and UFMatch.get (issue 11, items 6 and 10)', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let staff: Headers;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-contact', 'system'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    staff = (await crm.userWith('staff', ['access CRM'])).headers;
  });
  after(() => crm?.t.close());

  it('Entity.get: APIv3 lists the entity names; APIv4 describes each, with its keys and table', async () => {
    const v3 = await crm.api3(staff, 'Entity', 'get', {});
    expect(v3.values).to.include.members(['Contact', 'Email', 'Address']);
    const v4 = await crm.api4(staff, 'Entity', 'get', {});
    const contact = v4.values.find((row) => row.name === 'Contact');
    expect(contact).to.include({ name: 'Contact', label_field: 'sort_name', table_name: 'crm_contact' });
    expect(contact!.primary_key).to.deep.equal(['id']);
    const some = await crm.api4(staff, 'Entity', 'get', { select: ['name', 'description'] });
    expect(Object.keys(some.values[0])).to.deep.equal(['name', 'description']);
  });

  it('Extension.get returns every field of each plugin by default (4.7.13), filters by key; administrators only', async () => {
    const all = await crm.api3(admin, 'Extension', 'get', {});
    const contact = Object.values(all.values).find((row) => row.key === 'entity-contact');
    expect(contact).to.include({ key: 'entity-contact', status: 'installed', type: 'module', version: '1.0.0' });
    expect(contact!.description).to.be.a('string');
    const one = await crm.api3(admin, 'Extension', 'getsingle', { key: 'system' });
    expect(one).to.include({ key: 'system', status: 'installed' });
    expect((await crm.api3(staff, 'Extension', 'get', {})).is_error).to.equal(1);
    const v4 = await crm.api4(admin, 'Extension', 'get', { where: [['key', '=', 'system']] });
    expect(v4.values.map((row) => row.key)).to.deep.equal(['system']);
    const picked = await crm.api4(admin, 'Extension', 'get', { select: ['key'], where: [['key', '=', 'system']] });
    expect(picked.values).to.deep.equal([{ key: 'system' }]);
    // A clause these fixed rows cannot apply is refused, never ignored.
    const refused = await crm.api4(admin, 'Extension', 'get', { where: [['key', 'LIKE', 'sys%']] });
    expect(refused.status).to.equal(400);
  });

  it('Domain.get answers the one domain, with the service version', async () => {
    const domain = await crm.api3(staff, 'Domain', 'get', { current_domain: 1 });
    expect(domain.count).to.equal(1);
    expect(domain.values['1']).to.include({ id: '1', name: 'Default Domain Name' });
    const v4 = await crm.api4(staff, 'Domain', 'get', {});
    expect(v4.values[0]).to.include({ id: 1, name: 'Default Domain Name' });
    const named = await crm.api4(staff, 'Domain', 'get', { select: ['name'], where: [['id', '=', 1]] });
    expect(named.values).to.deep.equal([{ name: 'Default Domain Name' }]);
  });

  it('System.check answers the database, migrations and engine checks with their severity', async () => {
    const v3 = await crm.api3(admin, 'System', 'check', {});
    const names = v3.values.map((row: Record<string, unknown>) => row.name);
    expect(names).to.include.members(['checkDatabase', 'checkMigrations', 'checkDatabaseEngine']);
    const migrations = v3.values.find((row: Record<string, unknown>) => row.name === 'checkMigrations');
    expect(migrations).to.include({ severity: 'info', message: 'Every migration is applied.' });
    const v4 = await crm.api4(admin, 'System', 'check', {});
    expect(v4.values[0]).to.include({ name: 'checkDatabase', severity_id: 1, is_visible: true });
    expect((await crm.api3(staff, 'System', 'check', {})).is_error).to.equal(1);
    // Inside the call's transaction (force_rollback): the checks use it, not a second connection, which the
    // embedded database (one connection) could only give once the transaction ended (a hang, found by the
    // hostile suite with seed 853481608).
    const rolledBack = await crm.api3(admin, 'System', 'check', { options: { force_rollback: 1 } });
    expect(rolledBack.values.find((row: Record<string, unknown>) => row.name === 'checkDatabase')).to.include({
      severity_id: '1',
    });
  });

  it('System.get answers the version, database engine and plugins through both APIs; administrators only', async () => {
    const v3 = await crm.api3(admin, 'System', 'get', {});
    const v4 = await crm.api4(admin, 'System', 'get', {});
    expect(v4.values).to.have.length(1);
    expect(v4.values[0]).to.deep.equal(v3.values[0]);
    expect(v4.values[0].database).to.be.oneOf(['postgresql', 'pglite']);
    expect((v4.values[0].plugins as Array<{ name: string }>).map((p) => p.name)).to.include('system');
    expect((await crm.api4(staff, 'System', 'get', {})).status).to.equal(403);
  });

  it('System.flush drops the option caches: an option value written behind the service shows at once', async () => {
    const db = crm.t.kernel.db;
    const [group] = await db('crm_option_group').where({ name: 'gender' }).select('id');
    const before = await crm.api4(admin, 'Contact', 'getFields', {
      loadOptions: true,
      where: [['name', '=', 'gender_id']],
    });
    const labels = (row: Record<string, unknown>) => Object.values(row.options as Record<string, string>);
    expect(labels(before.values[0])).to.not.include('Nonbinary');
    await db('crm_option_value').insert({
      option_group_id: group.id,
      value: '9',
      name: 'Nonbinary',
      label: 'Nonbinary',
      weight: 9,
    });
    const cached = await crm.api4(admin, 'Contact', 'getFields', {
      loadOptions: true,
      where: [['name', '=', 'gender_id']],
    });
    expect(labels(cached.values[0]), 'still cached before the flush').to.not.include('Nonbinary');
    expect((await crm.api3(admin, 'System', 'flush', {})).is_error).to.equal(0);
    const after = await crm.api4(admin, 'Contact', 'getFields', {
      loadOptions: true,
      where: [['name', '=', 'gender_id']],
    });
    expect(labels(after.values[0])).to.include('Nonbinary');
  });

  it('UFMatch.get links each user to its contact (uf_id, uf_name, contact_id)', async () => {
    const all = await crm.api3(admin, 'UFMatch', 'get', { uf_name: 'staff' });
    expect(all.count).to.equal(1);
    const match = Object.values(all.values)[0] as Record<string, unknown>;
    expect(match).to.include({ uf_name: 'staff', domain_id: '1' });
    const byContact = await crm.api4(admin, 'UFMatch', 'get', {
      where: [['contact_id', '=', Number(match.contact_id)]],
    });
    expect(byContact.values).to.have.length(1);
    expect(byContact.values[0]).to.include({ uf_name: 'staff', uf_id: Number(match.uf_id) });
  });
});
