/** Setting over HTTP through both APIs: shapes keyed by domain, types, defaults, revert, fill, contact settings (4.7). */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('settings: Setting through APIv3 and APIv4', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let adminContact: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['settings'] });
    ({ headers: admin, contactId: adminContact } = await crm.userWith('root', ['*']));
    adminContact = Number(adminContact);
  });
  after(() => crm?.t.close());

  it('APIv3 get answers values keyed by domain id, defaults included; return narrows it', async () => {
    const all = await crm.api3(admin, 'Setting', 'get', {});
    expect(all).to.include({ is_error: 0, count: 1 });
    expect(all.values['1']).to.include({ lcMessages: 'en_US', max_attachments: 3 });
    const some = await crm.api3(admin, 'Setting', 'get', { return: ['defaultCurrency'], domain_id: 'all' });
    expect(some.values['1']).to.deep.equal({ defaultCurrency: 'USD' });
    const other = await crm.api3(admin, 'Setting', 'get', { domain_id: 7 });
    expect(other).to.include({ is_error: 1, error_message: 'Invalid domain id: 7' });
  });

  it('APIv3 create stores typed values; getvalue reads one; a wrong type or an unknown name is refused', async () => {
    const made = await crm.api3(admin, 'Setting', 'create', { max_attachments: '5', defaultCurrency: 'EUR' });
    expect(made.values['1']).to.deep.equal({ max_attachments: 5, defaultCurrency: 'EUR' });
    expect((await crm.api3(admin, 'Setting', 'getvalue', { name: 'defaultCurrency' })).result).to.equal('EUR');
    const bad = await crm.api3(admin, 'Setting', 'create', { max_attachments: 'lots' });
    expect(bad).to.include({ is_error: 1, error_message: 'max_attachments must be an integer' });
    const unknown = await crm.api3(admin, 'Setting', 'create', { no_such_thing: 1 });
    expect(unknown).to.include({ is_error: 1, error_message: 'Invalid setting: no_such_thing' });
    expect((await crm.api3(admin, 'Setting', 'getvalue', { name: 'max_attachments' })).result).to.equal(5);
  });

  it('getfields and getdefaults; revert goes back to the default; fill stores the missing defaults', async () => {
    const fields = await crm.api3(admin, 'Setting', 'getfields', {});
    expect(fields.values.max_attachments).to.include({ name: 'max_attachments', type: 'Integer', default: 3 });
    const defaults = await crm.api3(admin, 'Setting', 'getdefaults', { name: 'defaultCurrency' });
    expect(defaults.values['1']).to.deep.equal({ defaultCurrency: 'USD' });
    const reverted = await crm.api3(admin, 'Setting', 'revert', { name: 'defaultCurrency' });
    expect(reverted.values['1']).to.deep.equal({ defaultCurrency: 'USD' });
    expect((await crm.api3(admin, 'Setting', 'getvalue', { name: 'defaultCurrency' })).result).to.equal('USD');
    const filled = await crm.api3(admin, 'Setting', 'fill', {});
    expect(filled.values['1']).to.include({ lcMessages: 'en_US', max_attachments: 5 });
  });

  it('4.7: a contact setting is stored per contact, falling back to the domain value', async () => {
    await crm.api4(admin, 'Setting', 'set', { values: { preferred_language: 'fr_FR' }, contactId: adminContact });
    const mine = await crm.api4(admin, 'Setting', 'get', { select: ['preferred_language'], contactId: adminContact });
    expect(mine.values).to.deep.equal([{ name: 'preferred_language', value: 'fr_FR' }]);
    const domain = await crm.api4(admin, 'Setting', 'get', { select: ['preferred_language'] });
    expect(domain.values).to.deep.equal([{ name: 'preferred_language', value: null }]);
    const v3 = await crm.api3(admin, 'Setting', 'get', { return: 'preferred_language', contact_id: 'user_contact_id' });
    expect(v3.values['1']).to.deep.equal({ preferred_language: 'fr_FR' });
  });

  it('APIv4 set, get, revert and getFields; settings need administer CRM', async () => {
    const set = await crm.api4(admin, 'Setting', 'set', { values: { enable_components: ['CiviEvent'], enableSSL: 1 } });
    expect(set.values).to.deep.equal([
      { name: 'enable_components', value: ['CiviEvent'] },
      { name: 'enableSSL', value: true },
    ]);
    const got = await crm.api4(admin, 'Setting', 'get', { select: ['enable_components'] });
    expect(got.values).to.deep.equal([{ name: 'enable_components', value: ['CiviEvent'] }]);
    const reverted = await crm.api4(admin, 'Setting', 'revert', { select: ['enableSSL'] });
    expect(reverted.values).to.deep.equal([{ name: 'enableSSL', value: false }]);
    const fields = await crm.api4(admin, 'Setting', 'getFields', {});
    expect(fields.values.map((row) => row.name)).to.include.members(['lcMessages', 'preferred_language']);
    const { headers: staff } = await crm.userWith('staff', ['access CRM']);
    expect((await crm.api3(staff, 'Setting', 'get', {})).is_error).to.equal(1);
  });
});
