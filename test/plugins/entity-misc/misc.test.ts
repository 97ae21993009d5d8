/** OpenID and StatusPreference over both APIs (4.7.0): CRUD, a filter, a join, getfields, severity by name. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-misc: OpenID and StatusPreference', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let contactId: number;
  let openId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-misc'] });
    const root = await crm.userWith('root', ['*']);
    admin = root.headers;
    contactId = root.contactId;
  });
  after(() => crm?.t.close());

  it('4.7.0 OpenID API: create for a contact, get with a filter and a join on the contact', async () => {
    const created = await crm.api3(admin, 'OpenID', 'create', {
      contact_id: contactId,
      openid: 'https://id.example.org/root',
      location_type_id: 'Home',
      allowed_to_login: 1,
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    openId = Number(created.id);
    const got = await crm.api4(admin, 'OpenID', 'get', {
      select: ['openid', 'location_type_id:name', 'contact_id.display_name', 'is_primary'],
      where: [['allowed_to_login', '=', true]],
    });
    expect(got.values).to.have.length(1);
    expect(got.values[0]).to.include({
      openid: 'https://id.example.org/root',
      'location_type_id:name': 'Home',
      is_primary: false,
    });
    expect(got.values[0]['contact_id.display_name']).to.be.a('string');
  });

  it('OpenID: unique identifier, required fields, update and delete, getfields', async () => {
    const again = await crm.api3(admin, 'OpenID', 'create', {
      contact_id: contactId,
      openid: 'https://id.example.org/root',
    });
    expect(again).to.include({ is_error: 1 });
    const missing = await crm.api3(admin, 'OpenID', 'create', { contact_id: contactId });
    expect(missing).to.include({ is_error: 1 });
    const updated = await crm.api4(admin, 'OpenID', 'update', {
      where: [['id', '=', openId]],
      values: { is_primary: true },
    });
    expect(updated.values[0]).to.include({ is_primary: true });
    const fields = await crm.api3(admin, 'OpenID', 'getfields', {});
    expect(Object.keys(fields.values)).to.include.members(['openid', 'allowed_to_login', 'location_type_id']);
    expect(await crm.api3(admin, 'OpenID', 'delete', { id: openId })).to.include({ is_error: 0 });
    expect(await crm.api3(admin, 'OpenID', 'getcount', {})).to.include({ result: 0 });
  });

  it('4.7.0 StatusPreference API: severity by name in APIv3 and APIv4; an unknown severity refused', async () => {
    const created = await crm.api3(admin, 'StatusPreference', 'create', {
      name: 'checkOutboundMail',
      ignore_severity: 'warning',
      hush_until: '2030-01-31',
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    const id = Number(created.id);
    expect(created.values[String(id)]).to.include({ ignore_severity: '3', is_active: '1' });
    const got = await crm.api4(admin, 'StatusPreference', 'get', {
      select: ['name', 'ignore_severity:name', 'hush_until'],
      where: [['ignore_severity:name', '=', 'warning']],
    });
    expect(got.values[0]).to.include({
      name: 'checkOutboundMail',
      'ignore_severity:name': 'warning',
      hush_until: '2030-01-31',
    });
    const bad = await crm.api3(admin, 'StatusPreference', 'create', { name: 'x', ignore_severity: 'loud' });
    expect(bad).to.include({ is_error: 1 });
    const options = await crm.api3(admin, 'StatusPreference', 'getoptions', { field: 'ignore_severity' });
    expect(Object.values(options.values)).to.include.members(['debug', 'warning', 'emergency']);
    const updated = await crm.api4(admin, 'StatusPreference', 'update', {
      where: [['id', '=', id]],
      values: { 'ignore_severity:name': 'error' },
    });
    expect(updated.values[0]).to.include({ ignore_severity: 4 });
    expect(await crm.api3(admin, 'StatusPreference', 'delete', { id })).to.include({ is_error: 0 });
  });

  it('StatusPreference needs administer CRM', async () => {
    const clerk = (await crm.userWith('clerk', ['access CRM'])).headers;
    const refused = await crm.api3(clerk, 'StatusPreference', 'get', {});
    expect(refused).to.include({ is_error: 1 });
  });
});
