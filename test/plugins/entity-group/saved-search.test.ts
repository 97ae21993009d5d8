/** SavedSearch (4.7.0): form_values and api_params as structures in both APIs, audit fields, a join, getfields. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-group: SavedSearch (4.7.0)', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let adminContact: number;
  let searchId: number;
  const formValues = { contact_type: 'Individual', tags: { 3: 1 }, radio_ts: 'ts_all' };

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-group'] });
    const root = await crm.userWith('root', ['*']);
    admin = root.headers;
    adminContact = root.contactId;
  });
  after(() => crm?.t.close());

  it('4.7.0 SavedSearch API: APIv3 create takes form_values and api_params as structures and returns them so', async () => {
    const created = await crm.api3(admin, 'SavedSearch', 'create', {
      name: 'individuals',
      label: 'Individuals',
      form_values: formValues,
      api_params: { version: 4, where: [['contact_type', '=', 'Individual']] },
      description: 'Everyone who is a person',
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    searchId = Number(created.id);
    const got = await crm.api3(admin, 'SavedSearch', 'getsingle', { id: searchId });
    expect(got.form_values).to.deep.equal({ contact_type: 'Individual', tags: { 3: '1' }, radio_ts: 'ts_all' });
    expect(got.api_params).to.deep.equal({ version: '4', where: [['contact_type', '=', 'Individual']] });
    expect(got).to.include({ created_id: String(adminContact), modified_id: String(adminContact) });
    expect(got.created_date).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('APIv4 get with a filter and a join on the creator; structures as structures', async () => {
    const got = await crm.api4(admin, 'SavedSearch', 'get', {
      select: ['label', 'form_values', 'api_params', 'created_id.display_name'],
      where: [['name', '=', 'individuals']],
    });
    expect(got.values[0]).to.include({ label: 'Individuals' });
    expect(got.values[0].form_values).to.deep.equal(formValues);
    expect(got.values[0]['created_id.display_name']).to.be.a('string');
  });

  it('a search over another entity keeps its own where; bad JSON text is refused; update, getfields, delete', async () => {
    const activities = await crm.api4(admin, 'SavedSearch', 'create', {
      values: { name: 'meetings', api_entity: 'Activity', api_params: { where: [['activity_type_id', '=', 1]] } },
    });
    expect(activities.values, JSON.stringify(activities)).to.have.length(1);
    const bad = await crm.api3(admin, 'SavedSearch', 'create', { name: 'bad', form_values: '{not json' });
    expect(bad).to.include({ is_error: 1 });
    const updated = await crm.api3(admin, 'SavedSearch', 'create', { id: searchId, label: 'People' });
    expect(updated.values[String(searchId)]).to.include({ label: 'People' });
    const fields = await crm.api3(admin, 'SavedSearch', 'getfields', {});
    expect(Object.keys(fields.values)).to.include.members(['form_values', 'api_params', 'expires_date', 'created_id']);
    expect(await crm.api3(admin, 'SavedSearch', 'delete', { id: searchId })).to.include({ is_error: 0 });
  });
});
