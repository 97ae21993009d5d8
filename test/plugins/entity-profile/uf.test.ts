/** UFGroup, UFField, UFJoin over both APIs: CRUD, rules, a join, getfields; the 4.4.6 retired hidden fields. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-profile: UFGroup, UFField, UFJoin', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let profileId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-profile'] });
    admin = (await crm.userWith('root', ['*'])).headers;
  });
  after(() => crm?.t.close());

  it('UFGroup create fills name, public title, creator and defaults; title required', async () => {
    const created = await crm.api3(admin, 'UFGroup', 'create', { title: 'Volunteer Sign-up' });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    profileId = Number(created.id);
    expect(created.values[String(profileId)]).to.include({
      name: 'volunteer_sign_up',
      frontend_title: 'Volunteer Sign-up',
      is_active: '1',
      is_update_dupe: '1',
      add_cancel_button: '1',
    });
    expect(await crm.api3(admin, 'UFGroup', 'create', { name: 'x' })).to.include({ is_error: 1 });
    const viaV4 = await crm.api4(admin, 'UFGroup', 'create', { values: { title: 'Volunteer Sign-up' } });
    expect(viaV4.values[0], JSON.stringify(viaV4)).to.include({ name: 'volunteer_sign_up_2', is_active: true });
  });

  it('UFField create: weight at the end, label from the field, group_type follows, duplicates refused', async () => {
    const first = await crm.api3(admin, 'UFField', 'create', {
      uf_group_id: profileId,
      field_name: 'first_name',
      field_type: 'Individual',
      is_required: 1,
    });
    expect(first, JSON.stringify(first)).to.include({ is_error: 0 });
    expect(first.values[String(first.id)]).to.include({ weight: '1', label: 'First Name' });
    const email = await crm.api3(admin, 'UFField', 'create', {
      uf_group_id: profileId,
      field_name: 'email',
      field_type: 'Contact',
      location_type_id: 1,
      label: 'Home email',
    });
    expect(email.values[String(email.id)]).to.include({ weight: '2', location_type_id: '1' });
    const group = await crm.api3(admin, 'UFGroup', 'getsingle', { id: profileId });
    expect(group.group_type).to.equal('Individual,Contact');
    const twice = await crm.api3(admin, 'UFField', 'create', {
      uf_group_id: profileId,
      field_name: 'email',
      field_type: 'Contact',
      location_type_id: 1,
    });
    expect(twice).to.include({
      is_error: 1,
      error_message: 'The field was not added. It already exists in this profile.',
    });
    const bogus = await crm.api3(admin, 'UFField', 'create', { uf_group_id: profileId, field_name: 'shoe_size' });
    expect(bogus).to.include({ is_error: 1 });
    expect(String(bogus.error_message)).to.match(/field_name is not valid/);
  });

  it('4.4.6 profile fields: post_URL, cancel_URL and add_to_group_id are not profile fields but profile settings', async () => {
    for (const name of ['post_URL', 'cancel_URL', 'add_to_group_id']) {
      const refused = await crm.api3(admin, 'UFField', 'create', { uf_group_id: profileId, field_name: name });
      expect(refused, name).to.include({ is_error: 1 });
      expect(String(refused.error_message)).to.match(/4\.4\.6/);
    }
    const groupId = Number((await crm.api3(admin, 'Group', 'create', { title: 'Sign-ups' })).id);
    const settings = await crm.api4(admin, 'UFGroup', 'update', {
      where: [['id', '=', profileId]],
      values: { post_url: 'https://example.org/thanks', cancel_url: 'https://example.org/', add_to_group_id: groupId },
    });
    expect(settings.values[0]).to.include({ post_url: 'https://example.org/thanks', add_to_group_id: groupId });
  });

  it('UFJoin links the profile to a module; get with a join on the profile; getfields', async () => {
    const joined = await crm.api3(admin, 'UFJoin', 'create', {
      module: 'User Registration',
      weight: 1,
      uf_group_id: profileId,
    });
    expect(joined, JSON.stringify(joined)).to.include({ is_error: 0 });
    expect(await crm.api3(admin, 'UFJoin', 'create', { weight: 1, uf_group_id: profileId })).to.include({
      is_error: 1,
    });
    const got = await crm.api4(admin, 'UFJoin', 'get', {
      select: ['module', 'uf_group_id.title', 'uf_group_id:name'],
      where: [['module', '=', 'User Registration']],
    });
    expect(got.values[0]).to.include({
      module: 'User Registration',
      'uf_group_id.title': 'Volunteer Sign-up',
      'uf_group_id:name': 'volunteer_sign_up',
    });
    const fields = await crm.api4(admin, 'UFField', 'get', {
      select: ['field_name', 'uf_group_id.name'],
      where: [['uf_group_id.name', '=', 'volunteer_sign_up']],
      orderBy: { weight: 'ASC' },
    });
    expect(fields.values.map((row) => row.field_name)).to.deep.equal(['first_name', 'email']);
    const spec = await crm.api3(admin, 'UFField', 'getfields', { action: 'create' });
    expect(Object.keys(spec.values)).to.include.members([
      'field_name',
      'field_type',
      'location_type_id',
      'phone_type_id',
      'is_required',
    ]);
    expect(Object.keys((await crm.api3(admin, 'UFJoin', 'getfields', {})).values)).to.include.members([
      'module',
      'entity_table',
      'module_data',
    ]);
  });

  it('update and delete; administering profiles needs administer CRM, reading them access CRM', async () => {
    const clerk = (await crm.userWith('clerk', ['access CRM'])).headers;
    expect((await crm.api3(clerk, 'UFGroup', 'get', { id: profileId })).count).to.equal(1);
    expect(await crm.api3(clerk, 'UFGroup', 'create', { id: profileId, title: 'Hijacked' })).to.include({
      is_error: 1,
    });
    expect(await crm.api3(clerk, 'UFField', 'create', { uf_group_id: profileId, field_name: 'last_name' })).to.include({
      is_error: 1,
    });
    const renamed = await crm.api3(admin, 'UFGroup', 'create', { id: profileId, title: 'Volunteers' });
    expect(renamed.values[String(profileId)]).to.include({ title: 'Volunteers', name: 'volunteer_sign_up' });
    const spare = await crm.api3(admin, 'UFGroup', 'create', { title: 'Spare' });
    const field = await crm.api3(admin, 'UFField', 'create', { uf_group_id: spare.id, field_name: 'last_name' });
    expect(await crm.api3(admin, 'UFGroup', 'delete', { id: spare.id })).to.include({ is_error: 0 });
    expect((await crm.api3(admin, 'UFField', 'get', { id: field.id })).count).to.equal(0);
    // The deleted profile is no longer an option of uf_group_id, as in the reference (error 2001).
    expect(await crm.api3(admin, 'UFField', 'get', { uf_group_id: spare.id })).to.include({ is_error: 1 });
  });
});
