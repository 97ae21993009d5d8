/** Dashboard and DashboardContact over both APIs (4.4.x): CRUD, a filter, a join, getfields, the cascade. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-dashboard: Dashboard and DashboardContact', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let adminContact: number;
  let dashletId: number;
  let placedId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-dashboard'] });
    const root = await crm.userWith('root', ['*']);
    admin = root.headers;
    adminContact = root.contactId;
  });
  after(() => crm?.t.close());

  it('4.4.x Dashboard API: create with defaults, permission as a list, get with a filter', async () => {
    const created = await crm.api3(admin, 'Dashboard', 'create', {
      name: 'activity',
      label: 'Activities',
      url: '/crm/dashlet/activity',
      permission: ['access CRM', 'view all activities'],
      permission_operator: 'AND',
      is_active: 1,
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0 });
    dashletId = Number(created.id);
    const got = await crm.api4(admin, 'Dashboard', 'get', { where: [['name', '=', 'activity']] });
    expect(got.values[0]).to.include({ label: 'Activities', cache_minutes: 60, is_reserved: false, is_active: true });
    expect(got.values[0].permission).to.deep.equal(['access CRM', 'view all activities']);
    const bad = await crm.api3(admin, 'Dashboard', 'create', { label: 'x', permission_operator: 'XOR' });
    expect(bad).to.include({ is_error: 1 });
  });

  it('4.4.x DashboardContact API: place a dashlet for a contact, get joined to the dashlet, update, unique per contact', async () => {
    const placed = await crm.api3(admin, 'DashboardContact', 'create', {
      dashboard_id: dashletId,
      contact_id: adminContact,
      column_no: 1,
      is_active: 1,
      weight: 2,
    });
    expect(placed, JSON.stringify(placed)).to.include({ is_error: 0 });
    placedId = Number(placed.id);
    const got = await crm.api4(admin, 'DashboardContact', 'get', {
      select: ['column_no:label', 'weight', 'dashboard_id.label'],
      where: [['contact_id', '=', adminContact]],
    });
    expect(got.values[0]).to.include({ 'column_no:label': 'Right', weight: 2, 'dashboard_id.label': 'Activities' });
    const updated = await crm.api3(admin, 'DashboardContact', 'create', { id: placedId, weight: 5 });
    expect(updated.values[String(placedId)]).to.include({ weight: '5' });
    const twice = await crm.api3(admin, 'DashboardContact', 'create', {
      dashboard_id: dashletId,
      contact_id: adminContact,
    });
    expect(twice).to.include({ is_error: 1 });
  });

  it('getfields; deleting the dashlet deletes its placements', async () => {
    const fields = await crm.api3(admin, 'DashboardContact', 'getfields', { action: 'create' });
    expect(Object.keys(fields.values)).to.include.members(['dashboard_id', 'contact_id', 'column_no', 'weight']);
    const deleted = await crm.api3(admin, 'Dashboard', 'delete', { id: dashletId });
    expect(deleted).to.include({ is_error: 0 });
    const left = await crm.api3(admin, 'DashboardContact', 'getcount', { id: placedId });
    expect(left).to.include({ result: 0 });
  });
});
