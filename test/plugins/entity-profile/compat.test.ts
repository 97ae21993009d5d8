/** The reference's profile permission names (compat-civicrm) and Profile.submit's all-or-nothing writes. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-profile: reference permission names and transactional submit', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let profileId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-profile', 'compat-civicrm'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    profileId = Number((await crm.api3(admin, 'UFGroup', 'create', { title: 'My details' })).id);
    await crm.api3(admin, 'UFField', 'create', { uf_group_id: profileId, field_name: 'last_name', is_required: 1 });
    await crm.api3(admin, 'UFField', 'create', { uf_group_id: profileId, field_name: 'email', location_type_id: 1 });
  });
  after(() => crm?.t.close());

  it("'profile edit' and 'profile create' (the reference's names) grant what our profile permissions grant", async () => {
    const member = await crm.userWith('member', ['profile edit']);
    const own = await crm.api3(member.headers, 'Profile', 'submit', {
      profile_id: profileId,
      contact_id: member.contactId,
      last_name: 'Member',
      'email-1': 'member@example.org',
    });
    expect(own, JSON.stringify(own)).to.include({ is_error: 0 });
    const signup = (await crm.userWith('signup', ['profile create'])).headers;
    const created = await crm.api3(signup, 'Profile', 'submit', { profile_id: profileId, last_name: 'Newcomer' });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    const outsider = (await crm.userWith('outsider', ['profile view'])).headers;
    expect(await crm.api3(outsider, 'Profile', 'submit', { profile_id: profileId, last_name: 'X' })).to.include({
      is_error: 1,
    });
  });

  it('a refused location value leaves nothing written (no contact created)', async () => {
    const bad = await crm.api3(admin, 'Profile', 'submit', {
      profile_id: profileId,
      last_name: 'Halfway',
      'email-1': 'x'.repeat(300),
    });
    expect(bad).to.include({ is_error: 1 });
    expect((await crm.api3(admin, 'Contact', 'get', { last_name: 'Halfway' })).count).to.equal(0);
  });

  it('Profile.getfields for get names profile_id and contact_id', async () => {
    const fields = await crm.api3(admin, 'Profile', 'getfields', { action: 'get' });
    expect(Object.keys(fields.values)).to.deep.equal(['profile_id', 'contact_id']);
    expect(fields.values.profile_id).to.include({ 'api.required': 1 });
  });
});
