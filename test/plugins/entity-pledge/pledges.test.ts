/** Pledges over HTTP: the installment schedule (dates, remainder), payments against it and the pledge's status. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-pledge: Pledge and PledgePayment over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const person = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Ann' },
    });
    ann = Number(person.values[0].id);
  });
  after(() => crm?.t.close());

  const pledge = async (params: Row) => {
    const made = await crm.api3(admin, 'Pledge', 'create', {
      contact_id: ann,
      financial_type_id: 'Donation',
      frequency_unit: 'month',
      ...params,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    return Number(made.id);
  };
  const installments = async (pledgeId: number) =>
    (
      await crm.api4(admin, 'PledgePayment', 'get', {
        select: ['scheduled_date', 'scheduled_amount', 'actual_amount', 'status_id:name', 'contribution_id'],
        where: [['pledge_id', '=', pledgeId]],
        orderBy: { scheduled_date: 'ASC', id: 'ASC' },
      })
    ).values as Row[];
  const pledgeRow = async (pledgeId: number) =>
    (
      await crm.api4(admin, 'Pledge', 'get', {
        select: ['status_id:name', 'amount', 'original_installment_amount', 'end_date'],
        where: [['id', '=', pledgeId]],
      })
    ).values[0] as Row;
  const contribution = async (status: string, total: string) =>
    Number(
      (
        await crm.api3(admin, 'Contribution', 'create', {
          contact_id: ann,
          financial_type_id: 'Donation',
          total_amount: total,
          contribution_status_id: status,
        })
      ).id,
    );

  it('create schedules monthly installments on frequency_day; the last takes the remainder of the amount', async () => {
    const id = await pledge({ amount: 100, installments: 3, frequency_day: 15, start_date: '2030-01-20' });
    const rows = await installments(id);
    expect(rows.map((r) => r.scheduled_date)).to.deep.equal([
      '2030-01-15 00:00:00',
      '2030-02-15 00:00:00',
      '2030-03-15 00:00:00',
    ]);
    expect(rows.map((r) => r.scheduled_amount)).to.deep.equal([33.33, 33.33, 33.34]);
    expect(rows.every((r) => r['status_id:name'] === 'Pending')).to.equal(true);
    expect(await pledgeRow(id)).to.include({ 'status_id:name': 'Pending', original_installment_amount: 33.33 });
    const v3 = await crm.api3(admin, 'Pledge', 'getsingle', { id });
    expect(v3).to.include({ pledge_amount: '100.00', pledge_original_installment_amount: '33.33' });
  });

  it('frequency_day past the end of a month falls on its last day', async () => {
    const id = await pledge({ amount: 90, installments: 3, frequency_day: 31, start_date: '2030-01-05' });
    expect((await installments(id)).map((r) => String(r.scheduled_date).slice(0, 10))).to.deep.equal([
      '2030-01-31',
      '2030-02-28',
      '2030-03-31',
    ]);
  });

  it('weekly: on the frequency day of the week, every frequency_interval weeks', async () => {
    const id = await pledge({
      amount: 30,
      installments: 3,
      frequency_unit: 'week',
      frequency_interval: 2,
      frequency_day: 5,
      start_date: '2030-01-01',
    });
    expect((await installments(id)).map((r) => String(r.scheduled_date).slice(0, 10))).to.deep.equal([
      '2030-01-04',
      '2030-01-18',
      '2030-02-01',
    ]);
  });

  it('a given installment amount is kept; the last installment is what remains', async () => {
    const id = await pledge({
      amount: 100,
      installments: 4,
      original_installment_amount: 30,
      start_date: '2030-06-01',
    });
    expect((await installments(id)).map((r) => r.scheduled_amount)).to.deep.equal([30, 30, 30, 10]);
  });

  it('installments already due are Overdue, and so is the pledge', async () => {
    const id = await pledge({ amount: 20, installments: 2, start_date: '2020-01-01' });
    expect((await installments(id)).map((r) => r['status_id:name'])).to.deep.equal(['Overdue', 'Overdue']);
    expect(await pledgeRow(id)).to.include({ 'status_id:name': 'Overdue' });
  });

  it('payments: the oldest installment is paid, the pledge goes Pending → In Progress → Completed', async () => {
    const id = await pledge({ amount: 100, installments: 2, start_date: '2030-01-03' });
    const first = await crm.api3(admin, 'PledgePayment', 'create', {
      pledge_id: id,
      contribution_id: await contribution('Completed', '50.00'),
      actual_amount: 50,
    });
    expect(first, JSON.stringify(first)).to.include({ is_error: 0 });
    let rows = await installments(id);
    expect(rows[0]).to.include({
      scheduled_date: '2030-01-03 00:00:00',
      'status_id:name': 'Completed',
      actual_amount: 50,
    });
    expect(rows[1]).to.include({ 'status_id:name': 'Pending' });
    expect(rows).to.have.length(2);
    expect(await pledgeRow(id)).to.include({ 'status_id:name': 'In Progress' });
    const paid = await contribution('Completed', '50.00');
    const upd = await crm.api4(admin, 'PledgePayment', 'update', {
      where: [
        ['pledge_id', '=', id],
        ['status_id:name', '=', 'Pending'],
      ],
      values: { contribution_id: paid },
    });
    expect(upd.values, JSON.stringify(upd)).to.have.length(1);
    rows = await installments(id);
    expect(rows[1]).to.include({ 'status_id:name': 'Completed', actual_amount: 50 });
    const done = await pledgeRow(id);
    expect(done).to.include({ 'status_id:name': 'Completed' });
    expect(done.end_date).to.be.a('string');
    const none = await crm.api3(admin, 'PledgePayment', 'create', { pledge_id: id, actual_amount: 1 });
    expect(none).to.include({ is_error: 1 });
    expect(String(none.error_message)).to.match(/no unmatched payment/);
  });

  it('an edit with is_pledge_pending that changes the amount or installments makes the schedule again', async () => {
    const id = await pledge({ amount: 100, installments: 2, start_date: '2030-01-03' });
    const amounts = async () => (await installments(id)).map((row) => row.scheduled_amount);
    expect(await amounts()).to.deep.equal([50, 50]);
    // Without the flag an edit leaves the installments alone, as the reference's API does.
    const plain = await crm.api3(admin, 'Pledge', 'create', { id, amount: 80 });
    expect(plain, JSON.stringify(plain)).to.include({ is_error: 0 });
    expect(await amounts()).to.deep.equal([50, 50]);
    const again = await crm.api3(admin, 'Pledge', 'create', { id, amount: 90, installments: 3, is_pledge_pending: 1 });
    expect(again, JSON.stringify(again)).to.include({ is_error: 0 });
    expect(await amounts()).to.deep.equal([30, 30, 30]);
    expect(await pledgeRow(id)).to.include({ 'status_id:name': 'Pending', original_installment_amount: 30 });
    // Once an installment is paid, the schedule is not made again.
    await crm.api3(admin, 'PledgePayment', 'create', {
      pledge_id: id,
      contribution_id: await contribution('Completed', '30.00'),
      actual_amount: 30,
    });
    const refused = await crm.api3(admin, 'Pledge', 'create', { id, installments: 2, is_pledge_pending: 1 });
    expect(refused).to.include({ is_error: 1 });
    expect(String(refused.error_message)).to.match(/completed payments: its schedule cannot be made again/);
    expect(await amounts()).to.deep.equal([30, 30, 30]);
  });

  it('4.3.4 completetransaction: an installment paid by a Pending contribution completes with it', async () => {
    const id = await pledge({ amount: 80, installments: 1, start_date: '2030-01-03' });
    const [row] = await installments(id);
    const pending = await contribution('Pending', '80.00');
    const link = await crm.api4(admin, 'PledgePayment', 'get', { where: [['pledge_id', '=', id]] });
    await crm.api3(admin, 'PledgePayment', 'create', { id: link.values[0].id, contribution_id: pending });
    expect((await installments(id))[0]).to.include({ 'status_id:name': 'Pending', contribution_id: pending });
    expect(row).to.include({ scheduled_amount: 80 });
    const done = await crm.api3(admin, 'Contribution', 'completetransaction', { id: pending });
    expect(done, JSON.stringify(done)).to.include({ is_error: 0 });
    expect((await installments(id))[0]).to.include({ 'status_id:name': 'Completed', actual_amount: 80 });
    expect(await pledgeRow(id)).to.include({ 'status_id:name': 'Completed' });
  });

  it('get with a filter and joins (APIv3 and APIv4), update, delete with its installments, getfields', async () => {
    const id = await pledge({ amount: 12, installments: 2, start_date: '2031-01-01', currency: 'EUR' });
    const v4 = await crm.api4(admin, 'Pledge', 'get', {
      select: ['contact_id.display_name', 'financial_type_id:name', 'status_id:label'],
      where: [['currency', '=', 'EUR']],
    });
    expect(v4.values).to.have.length(1);
    expect(v4.values[0]).to.include({
      'contact_id.display_name': 'Ann',
      'financial_type_id:name': 'Donation',
      'status_id:label': 'Pending',
    });
    const v3 = await crm.api3(admin, 'Pledge', 'get', { currency: 'EUR', return: 'contact_id.display_name,amount' });
    expect(v3.count).to.equal(1);
    const either = await crm.api3(admin, 'Pledge', 'get', {
      currency: 'EUR',
      pledge_amount: 999,
      options: { or: [['currency', 'pledge_amount']] },
    });
    expect(either.count, JSON.stringify(either)).to.equal(1);
    await crm.api3(admin, 'Pledge', 'create', { id, acknowledge_date: '2031-01-02' });
    expect((await crm.api3(admin, 'Pledge', 'getsingle', { id })).acknowledge_date).to.match(/^2031-01-02/);
    const fields = await crm.api3(admin, 'Pledge', 'getfields', { action: 'create' });
    expect(fields.values).to.include.keys('amount', 'installments', 'frequency_day', 'original_installment_amount');
    expect((await crm.api3(admin, 'Pledge', 'delete', { id })).is_error).to.equal(0);
    expect(await installments(id)).to.have.length(0);
  });

  it('bad input is refused with a clear error', async () => {
    const zero = await crm.api3(admin, 'Pledge', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      amount: 10,
      installments: 0,
      start_date: '2030-01-01',
    });
    expect(zero).to.include({ is_error: 1 });
    const date = await crm.api3(admin, 'Pledge', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      amount: 10,
      start_date: 'soon',
    });
    expect(date).to.include({ is_error: 1 });
    const missing = await crm.api3(admin, 'Pledge', 'create', { contact_id: ann, financial_type_id: 1 });
    expect(missing).to.include({ is_error: 1 });
  });

  it('permissions: access pledges to read; a contact sees only their own pledges and installments', async () => {
    const reader = await crm.userWith('pledger', [
      'access CRM',
      'access pledges',
      'access contributions',
      'view my contact',
    ]);
    const own = await crm.api3(admin, 'Pledge', 'create', {
      contact_id: reader.contactId,
      financial_type_id: 1,
      amount: 10,
      installments: 2,
      start_date: '2030-01-01',
    });
    const seen = await crm.api3(reader.headers, 'Pledge', 'get', {});
    expect(Object.keys(seen.values)).to.deep.equal([String(own.id)]);
    const payments = await crm.api4(reader.headers, 'PledgePayment', 'get', { select: ['pledge_id'] });
    expect(payments.values.map((r: Row) => r.pledge_id)).to.deep.equal([Number(own.id), Number(own.id)]);
    const write = await crm.api3(reader.headers, 'Pledge', 'create', {
      contact_id: reader.contactId,
      financial_type_id: 1,
      amount: 5,
      start_date: '2030-01-01',
    });
    expect(write).to.include({ is_error: 1 });
    const compat = await crm.userWith('civi-pledge', ['access CiviCRM', 'access CiviPledge', 'view all contacts']);
    expect((await crm.api3(compat.headers, 'Pledge', 'get', {})).is_error).to.equal(0);
  });
});
