/** APIv3 Profile over HTTP (4.4.0): get, submit and getfields with location fields; the 4.4.6 hidden fields. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-profile: Profile.get, Profile.submit, Profile.getfields', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let profileId: number;
  let groupId: number;
  let contactId: number;

  const field = (values: Record<string, unknown>) =>
    crm.api3(admin, 'UFField', 'create', { uf_group_id: profileId, ...values });

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-profile'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    groupId = Number((await crm.api3(admin, 'Group', 'create', { title: 'Newsletter' })).id);
    const profile = await crm.api3(admin, 'UFGroup', 'create', {
      title: 'Supporter',
      name: 'supporter',
      add_to_group_id: groupId,
    });
    profileId = Number(profile.id);
    await field({ field_name: 'first_name', field_type: 'Individual', is_required: 1, label: 'First' });
    await field({ field_name: 'last_name', field_type: 'Individual', label: 'Last' });
    await field({ field_name: 'gender_id', field_type: 'Individual', label: 'Gender' });
    await field({ field_name: 'email', field_type: 'Contact', label: 'Email' });
    await field({
      field_name: 'phone',
      field_type: 'Contact',
      location_type_id: 1,
      phone_type_id: 1,
      label: 'Home phone',
    });
    await field({ field_name: 'street_address', field_type: 'Contact', location_type_id: 1, label: 'Street' });
    await field({ field_name: 'city', field_type: 'Contact', location_type_id: 1, label: 'City' });
  });
  after(() => crm?.t.close());

  it('4.4.0 Profile.getfields action=submit: the profile fields, lower-case location keys, required flags, options', async () => {
    const answer = await crm.api3(admin, 'Profile', 'getfields', {
      action: 'submit',
      profile_id: profileId,
      get_options: 'all',
    });
    expect(answer, JSON.stringify(answer)).to.include({ is_error: 0 });
    const values = answer.values as Record<string, Record<string, unknown>>;
    expect(Object.keys(values)).to.include.members([
      'profile_id',
      'first_name',
      'last_name',
      'gender_id',
      'email-primary',
      'phone-1-1',
      'street_address-1',
      'city-1',
    ]);
    expect(values.first_name).to.include({ 'api.required': 1, title: 'First', entity: 'contact' });
    expect(values['email-primary']).to.include({ 'api.required': 0, title: 'Email', entity: 'email' });
    expect(values['email-primary']['api.aliases']).to.include('email-Primary');
    expect(values['phone-1-1']).to.include({ entity: 'phone', title: 'Home phone' });
    expect(values.gender_id.options).to.be.an('object').that.is.not.empty;
    expect(values.profile_id).to.include({ 'api.required': 1 });
  });

  it('4.4.6 Profile.getfields lists none of the retired hidden fields post_URL, cancel_URL, add_to_group_id', async () => {
    const answer = await crm.api3(admin, 'Profile', 'getfields', { action: 'submit', profile_id: profileId });
    const keys = Object.keys(answer.values).map((key) => key.toLowerCase());
    for (const hidden of ['post_url', 'cancel_url', 'add_to_group_id']) expect(keys).not.to.include(hidden);
  });

  it('4.4.0 Profile.submit without a contact creates one with its email, phone and address, and joins the profile group', async () => {
    const submitted = await crm.api3(admin, 'Profile', 'submit', {
      profile_id: profileId,
      first_name: 'Ada',
      last_name: 'Lovelace',
      'email-Primary': 'ada@example.org',
      'phone-1-1': '555-0100',
      'street_address-1': '12 Analytical Way',
      'city-1': 'London',
    });
    expect(submitted, JSON.stringify(submitted)).to.include({ is_error: 0 });
    contactId = Number(submitted.id);
    expect(submitted.values[String(contactId)]).to.include({ first_name: 'Ada', contact_type: 'Individual' });
    const email = await crm.api3(admin, 'Email', 'getsingle', { contact_id: contactId });
    expect(email).to.include({ email: 'ada@example.org', is_primary: '1' });
    const phone = await crm.api3(admin, 'Phone', 'getsingle', { contact_id: contactId });
    expect(phone).to.include({ phone: '555-0100', location_type_id: '1', phone_type_id: '1' });
    const address = await crm.api3(admin, 'Address', 'getsingle', { contact_id: contactId });
    expect(address).to.include({ street_address: '12 Analytical Way', city: 'London', location_type_id: '1' });
    expect((await crm.api3(admin, 'GroupContact', 'get', { contact_id: contactId, group_id: groupId })).count).to.equal(
      1,
    );
  });

  it('4.4.0 Profile.get returns the contact values keyed as the reference (email-Primary, phone-1-1, street_address-1)', async () => {
    const answer = await crm.api3(admin, 'Profile', 'get', { profile_id: profileId, contact_id: contactId });
    expect(answer, JSON.stringify(answer)).to.include({ is_error: 0 });
    expect(answer.values).to.include({
      first_name: 'Ada',
      last_name: 'Lovelace',
      'email-Primary': 'ada@example.org',
      'email-primary': 'ada@example.org',
      'phone-1-1': '555-0100',
      'street_address-1': '12 Analytical Way',
      'city-1': 'London',
    });
    const byList = await crm.api3(admin, 'Profile', 'get', {
      profile_id: [profileId, 'supporter'],
      contact_id: contactId,
    });
    expect(Object.keys(byList.values)).to.deep.equal([String(profileId)]);
    expect(byList.values[String(profileId)]).to.include({ first_name: 'Ada' });
    const blanks = await crm.api3(admin, 'Profile', 'get', { profile_id: profileId });
    expect(blanks.values).to.include({ first_name: '', 'phone-1-1': '' });
  });

  it('Profile.submit updates the contact and its location records in place', async () => {
    const updated = await crm.api3(admin, 'Profile', 'submit', {
      profile_id: profileId,
      contact_id: contactId,
      first_name: 'Augusta',
      'email-primary': 'augusta@example.org',
      'city-1': 'Marylebone',
    });
    expect(updated, JSON.stringify(updated)).to.include({ is_error: 0, id: contactId });
    const emails = await crm.api3(admin, 'Email', 'get', { contact_id: contactId });
    expect(emails.count).to.equal(1);
    expect(Object.values(emails.values)[0]).to.include({ email: 'augusta@example.org' });
    const read = await crm.api3(admin, 'Profile', 'get', { profile_id: 'supporter', contact_id: contactId });
    expect(read.values[String(profileId)]).to.include({
      first_name: 'Augusta',
      'city-1': 'Marylebone',
      'street_address-1': '12 Analytical Way',
    });
  });

  it('Profile.submit refuses a field outside the profile, a missing required field, the 4.4.6 hidden fields', async () => {
    const stranger = await crm.api3(admin, 'Profile', 'submit', {
      profile_id: profileId,
      contact_id: contactId,
      first_name: 'A',
      job_title: 'Countess',
    });
    expect(stranger).to.include({ is_error: 1 });
    expect(String(stranger.error_message)).to.match(/Not a field of this profile: job_title/);
    const missing = await crm.api3(admin, 'Profile', 'submit', { profile_id: profileId, last_name: 'Byron' });
    expect(missing).to.include({
      is_error: 1,
      error_message: 'Mandatory key(s) missing from params array: first_name',
    });
    for (const hidden of ['post_URL', 'cancel_URL', 'add_to_group_id']) {
      const refused = await crm.api3(admin, 'Profile', 'submit', {
        profile_id: profileId,
        first_name: 'A',
        [hidden]: 'x',
      });
      expect(refused, hidden).to.include({ is_error: 1 });
      expect(String(refused.error_message)).to.match(/4\.4\.6/);
    }
    expect((await crm.api3(admin, 'Contact', 'get', { last_name: 'Byron' })).count).to.equal(0);
    const inactive = await crm.api3(admin, 'UFGroup', 'create', { title: 'Old form', is_active: 0 });
    const closed = await crm.api3(admin, 'Profile', 'get', { profile_id: inactive.id, contact_id: contactId });
    expect(closed).to.include({ is_error: 1, error_message: `Invalid value for profile_id : ${inactive.id}` });
  });

  it('permissions: own contact through the profile permission; another contact refused; create through profiles', async () => {
    const member = await crm.userWith('member', ['edit own contact through profiles']);
    const own = await crm.api3(member.headers, 'Profile', 'submit', {
      profile_id: profileId,
      contact_id: member.contactId,
      first_name: 'Mia',
      'phone-1-1': '555-0199',
    });
    expect(own, JSON.stringify(own)).to.include({ is_error: 0 });
    const other = await crm.api3(member.headers, 'Profile', 'submit', {
      profile_id: profileId,
      contact_id: contactId,
      first_name: 'Evil',
    });
    expect(other).to.include({ is_error: 1 });
    const signup = (await crm.userWith('signup', ['create contacts through profiles'])).headers;
    const created = await crm.api3(signup, 'Profile', 'submit', {
      profile_id: profileId,
      first_name: 'New',
      last_name: 'Comer',
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    const nobody = (await crm.userWith('nobody', [])).headers;
    expect(await crm.api3(nobody, 'Profile', 'submit', { profile_id: profileId, first_name: 'X' })).to.include({
      is_error: 1,
    });
    const viewer = (await crm.userWith('viewer', ['view contacts through profiles'])).headers;
    expect(await crm.api3(viewer, 'Profile', 'get', { profile_id: profileId, contact_id: contactId })).to.include({
      is_error: 1,
    });
    const first = await crm.api3(admin, 'Contact', 'getsingle', { id: contactId });
    expect(first.first_name).to.equal('Augusta');
    // Staff write as themselves: their contact permissions decide.
    const staff = (await crm.userWith('staff', ['access CRM', 'view all contacts', 'edit all contacts'])).headers;
    const edited = await crm.api3(staff, 'Profile', 'submit', {
      profile_id: profileId,
      contact_id: contactId,
      first_name: 'Ada',
      'phone-1-1': '555-0111',
    });
    expect(edited, JSON.stringify(edited)).to.include({ is_error: 0 });
    expect(await crm.api3(staff, 'Profile', 'get', { profile_id: profileId, contact_id: contactId })).to.nested.include(
      {
        'values.phone-1-1': '555-0111',
      },
    );
    const noAdd = await crm.api3(staff, 'Profile', 'submit', { profile_id: profileId, first_name: 'Nobody' });
    expect(noAdd).to.include({ is_error: 1 });
  });
});
