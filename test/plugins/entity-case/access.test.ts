/** Case permissions and row access over HTTP: "my cases" (a client or a role holder) against all cases. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-case: permissions and my-cases row access', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let own: { headers: Headers; contactId: number };
  const cases: Record<string, number> = {};

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    // The reference's permission names, through compat-civicrm's aliases.
    own = await crm.userWith('worker', ['access CiviCRM', 'access my cases and activities']);
    const other = Number(
      (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Zed' } }))
        .values[0].id,
    );
    const open = async (name: string, params: Row) => {
      const made = await crm.api3(admin, 'Case', 'create', { case_type: 'housing_support', subject: name, ...params });
      expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
      cases[name] = Number(made.id);
    };
    await open('client', { contact_id: own.contactId });
    await open('role', { contact_id: other, creator_id: own.contactId });
    await open('unrelated', { contact_id: other });
  });
  after(() => crm?.t.close());

  it('a holder of only "my cases" sees the cases where they are a client or hold a case role', async () => {
    const v3 = await crm.api3(own.headers, 'Case', 'get', { sequential: 1, return: ['subject'] });
    expect(v3, JSON.stringify(v3)).to.include({ is_error: 0 });
    expect(v3.values.map((row: Row) => row.subject).sort()).to.deep.equal(['client', 'role']);
    const v4 = await crm.api4(own.headers, 'Case', 'get', { select: ['subject'] });
    expect(v4.values.map((row: Row) => row.subject).sort()).to.deep.equal(['client', 'role']);
    const hidden = await crm.api4(own.headers, 'CaseContact', 'get', { where: [['case_id', '=', cases.unrelated]] });
    expect(hidden.values).to.have.length(0);
    const update = await crm.api4(own.headers, 'Case', 'update', {
      where: [['id', '=', cases.unrelated]],
      values: { subject: 'mine now' },
    });
    expect(update.count ?? 0).to.equal(0);
  });

  it('"my cases" may work on its own case but not open, delete or define case types', async () => {
    const edit = await crm.api4(own.headers, 'Case', 'update', {
      where: [['id', '=', cases.client]],
      values: { status_id: 3 },
    });
    expect(edit, JSON.stringify(edit)).to.have.property('count', 1);
    const opened = await crm.api3(own.headers, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: own.contactId,
      subject: 'x',
    });
    expect(opened).to.include({ is_error: 1 });
    const deleted = await crm.api3(own.headers, 'Case', 'delete', { id: cases.client });
    expect(deleted).to.include({ is_error: 1 });
    const typed = await crm.api3(own.headers, 'CaseType', 'create', { name: 'x', title: 'X' });
    expect(typed).to.include({ is_error: 1 });
    const types = await crm.api3(own.headers, 'CaseType', 'get', {});
    expect(types).to.include({ is_error: 0, count: 2 });
  });

  it('"all cases" sees every case; without a case permission nothing is readable', async () => {
    const all = await crm.userWith('manager', ['access CiviCRM', 'access all cases']);
    const seen = await crm.api4(all.headers, 'Case', 'get', { select: ['subject'] });
    expect(seen.values.map((row: Row) => row.subject).sort()).to.deep.equal(['client', 'role', 'unrelated']);
    const none = await crm.userWith('clerk', ['access CiviCRM']);
    const refused = await crm.api3(none.headers, 'Case', 'get', {});
    expect(refused).to.include({ is_error: 1 });
  });
});
