/** ContributionSoft (4.4.0) and ContributionRecur over HTTP: create, get with a filter and a join, update, delete, getfields. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers } from './http';

describe('entity-contribute: soft credits and recurring contributions over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;
  let bob: number;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const contact = async (first: string) =>
      Number(
        (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: first } }))
          .values[0].id,
      );
    ann = await contact('Ann');
    bob = await contact('Bob');
  });
  after(() => crm?.t.close());

  it('4.4.0 Contribution create with soft_credit makes ContributionSoft rows; get with a join; update; delete', async () => {
    const made = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Donation',
      total_amount: '50.00',
      soft_credit: [{ contact_id: bob, amount: '20.00', soft_credit_type_id: 1 }],
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'ContributionSoft', 'get', {
      contribution_id: made.id,
      return: ['amount', 'soft_credit_type_id', 'contact_id.display_name'],
    });
    expect(got.count).to.equal(1);
    const soft = Object.values(got.values)[0];
    expect(soft).to.include({ amount: '20.00', soft_credit_type_id: '1', 'contact_id.display_name': 'Bob' });
    const changed = await crm.api4(admin, 'ContributionSoft', 'update', {
      where: [['id', '=', soft.id]],
      values: { amount: '25.00' },
    });
    expect(changed.values[0]).to.include({ amount: 25 });
    const fields = await crm.api3(admin, 'ContributionSoft', 'getfields', { action: 'create' });
    expect(fields.values).to.include.keys('contribution_id', 'soft_credit_type_id');
    expect(await crm.api3(admin, 'ContributionSoft', 'delete', { id: soft.id })).to.include({ is_error: 0 });
    const bad = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: 1,
      soft_credit: 'bob',
    });
    expect(bad).to.include({ is_error: 1 });
  });

  it('ContributionRecur: create with defaults, get with a filter and a join, update, delete', async () => {
    const made = await crm.api4(admin, 'ContributionRecur', 'create', {
      values: { contact_id: ann, amount: '9.99', financial_type_id: 1, installments: 12 },
    });
    const recur = made.values[0];
    expect(recur).to.include({
      frequency_unit: 'month',
      frequency_interval: 1,
      contribution_status_id: 2,
      amount: 9.99,
    });
    const got = await crm.api4(admin, 'ContributionRecur', 'get', {
      select: ['amount', 'contact_id.display_name', 'financial_type_id.name', 'contribution_status_id:name'],
      where: [['installments', '=', 12]],
    });
    expect(got.values[0]).to.include({
      'contact_id.display_name': 'Ann',
      'financial_type_id.name': 'Donation',
      'contribution_status_id:name': 'Pending',
    });
    const changed = await crm.api3(admin, 'ContributionRecur', 'create', { id: recur.id, frequency_unit: 'year' });
    expect(changed.values[String(recur.id)]).to.include({ frequency_unit: 'year' });
    const bad = await crm.api3(admin, 'ContributionRecur', 'create', { id: recur.id, frequency_unit: 'fortnight' });
    expect(bad).to.include({ is_error: 1 });
    const fields = await crm.api4(admin, 'ContributionRecur', 'getFields', { select: ['name'] });
    expect(fields.values.map((field) => field.name)).to.include('next_sched_contribution_date');
    expect(await crm.api3(admin, 'ContributionRecur', 'delete', { id: recur.id })).to.include({ is_error: 0 });
  });
});
