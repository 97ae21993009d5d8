/** ReportInstance over both APIs (4.4.0): CRUD, form_values as a structure, a filter, a join, getfields. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-report: ReportInstance', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let contactId: number;
  let reportId: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-report'] });
    const root = await crm.userWith('root', ['*']);
    admin = root.headers;
    contactId = root.contactId;
  });
  after(() => crm?.t.close());

  it('4.4.0 ReportInstance API: create with form_values as a structure; report_id required', async () => {
    const created = await crm.api4(admin, 'ReportInstance', 'create', {
      values: {
        title: 'Donors this year',
        report_id: 'contribute/summary',
        owner_id: contactId,
        form_values: { fields: { total_amount: 1 }, receive_date_relative: 'this.year' },
        grouprole: ['admin', 'staff'],
      },
    });
    expect(created.values, JSON.stringify(created)).to.have.length(1);
    reportId = Number(created.values[0].id);
    const missing = await crm.api3(admin, 'ReportInstance', 'create', { title: 'x' });
    expect(missing).to.include({ is_error: 1 });
  });

  it('get with a filter and a join on the owner; APIv3 returns form_values as JSON text', async () => {
    const got = await crm.api4(admin, 'ReportInstance', 'get', {
      select: ['title', 'form_values', 'grouprole', 'owner_id.display_name', 'is_active'],
      where: [['report_id', '=', 'contribute/summary']],
    });
    expect(got.values[0]).to.include({ title: 'Donors this year', is_active: true });
    expect(got.values[0].form_values).to.deep.equal({
      fields: { total_amount: 1 },
      receive_date_relative: 'this.year',
    });
    expect(got.values[0].grouprole).to.deep.equal(['admin', 'staff']);
    expect(got.values[0]['owner_id.display_name']).to.be.a('string');
    const creator = await crm.api4(admin, 'ReportInstance', 'get', {
      select: ['created_id'],
      where: [['id', '=', reportId]],
    });
    expect(creator.values[0]).to.include({ created_id: contactId });
    const v3 = await crm.api3(admin, 'ReportInstance', 'getsingle', { id: reportId });
    expect(JSON.parse(String(v3.form_values))).to.include({ receive_date_relative: 'this.year' });
  });

  it('update, getfields, delete', async () => {
    const updated = await crm.api3(admin, 'ReportInstance', 'create', { id: reportId, is_active: 0 });
    expect(updated.values[String(reportId)]).to.include({ is_active: '0' });
    const fields = await crm.api3(admin, 'ReportInstance', 'getfields', {});
    expect(Object.keys(fields.values)).to.include.members(['report_id', 'form_values', 'owner_id']);
    expect(await crm.api3(admin, 'ReportInstance', 'delete', { id: reportId })).to.include({ is_error: 0 });
  });
});
