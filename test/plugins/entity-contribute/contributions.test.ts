/** Contribution over HTTP: line items, transactions by status, the legacy alias, completetransaction. */
import { expect } from 'chai';
import { sqlDuring } from '../../../host/testing';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-contribute: Contribution over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const made = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Ann' },
    });
    ann = Number(made.values[0].id);
  });
  after(() => crm?.t.close());

  const lineItems = async (contributionId: number) =>
    (await crm.api4(admin, 'LineItem', 'get', { where: [['contribution_id', '=', contributionId]] })).values as Row[];
  const trxns = async (contributionId: number) =>
    (
      await crm.api4(admin, 'EntityFinancialTrxn', 'get', {
        select: [
          'amount',
          'financial_trxn_id.is_payment',
          'financial_trxn_id.status_id',
          'financial_trxn_id.to_financial_account_id.name',
        ],
        where: [
          ['entity_table', '=', 'civicrm_contribution'],
          ['entity_id', '=', contributionId],
        ],
        orderBy: { id: 'ASC' },
      })
    ).values as Row[];

  it('4.3.0 APIv3 create: a default line item for the total and a payment into the deposit account', async () => {
    const made = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Donation',
      total_amount: 100.1,
      fee_amount: '2.35',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const row = made.values[String(made.id)];
    expect(row).to.include({
      total_amount: '100.10',
      fee_amount: '2.35',
      net_amount: '97.75',
      contribution_status_id: '1',
    });
    const items = await lineItems(Number(made.id));
    expect(items).to.have.length(1);
    expect(items[0]).to.include({
      qty: 1,
      unit_price: 100.1,
      line_total: 100.1,
      label: 'Contribution Amount',
    });
    const [share] = await trxns(Number(made.id));
    expect(share).to.include({
      amount: 100.1,
      'financial_trxn_id.is_payment': true,
      'financial_trxn_id.to_financial_account_id.name': 'Deposit Bank Account',
    });
  });

  it('a create with more line items than one linked statement takes (150) stores them all, one by one', async () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ qty: 1, unit_price: '0.10', label: `Item ${i}` }));
    let made: Row = {};
    const sqls = await sqlDuring(crm.t.kernel.db, async () => {
      made = await crm.api3(admin, 'Contribution', 'create', {
        contact_id: ann,
        financial_type_id: 'Donation',
        total_amount: '15.00',
        line_items: items,
      });
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    expect(sqls.filter((sql) => /^with s0/i.test(sql))).to.have.length(0);
    const stored = await lineItems(Number(made.id));
    expect(stored).to.have.length(150);
    expect(stored.map((item) => item.label)).to.include.members(['Item 0', 'Item 149']);
    expect(await trxns(Number(made.id))).to.have.length(1);
  });

  it('refuses line item and soft credit keys that are not fields, and a refused soft credit leaves nothing', async () => {
    const count = async () =>
      (await crm.api4(admin, 'Contribution', 'get', { where: [['contact_id', '=', ann]], select: ['row_count'] }))
        .count as number;
    const before = await count();
    const base = { contact_id: ann, financial_type_id: 1, total_amount: '5.00' };
    const item = await crm.api3(admin, 'Contribution', 'create', {
      ...base,
      line_items: [{ qty: 1, unit_price: '5.00', colour: 'red' }],
    });
    expect(item).to.include({ is_error: 1, error_message: 'line_items: not a field of LineItem: colour' });
    const half = await crm.api3(admin, 'Contribution', 'create', {
      ...base,
      line_items: [{ qty: 1, unit_price: '5.00', entity_id: 3 }],
    });
    expect(half).to.include({ is_error: 1, error_message: 'line_items: entity_table and entity_id go together' });
    const credit = await crm.api3(admin, 'Contribution', 'create', {
      ...base,
      soft_credit: [{ contact_id: ann, note: 'x' }],
    });
    expect(credit).to.include({ is_error: 1, error_message: 'soft_credit: not a field of ContributionSoft: note' });
    // A soft credit to a contact that does not exist: the database refuses the one statement, so no contribution.
    const ghost = await crm.api3(admin, 'Contribution', 'create', { ...base, soft_credit: [{ contact_id: 99999999 }] });
    expect(ghost.is_error, JSON.stringify(ghost)).to.equal(1);
    expect(String(ghost.error_message)).to.match(/^DB Error/);
    expect(await count()).to.equal(before);
  });

  it('a batch of creates (APIv4 save with records) gives each contribution its line item and payment', async () => {
    const saved = await crm.api4(admin, 'Contribution', 'save', {
      records: [
        { contact_id: ann, financial_type_id: 1, total_amount: '7.25' },
        { contact_id: ann, financial_type_id: 1, total_amount: '8.50', contribution_status_id: 2 },
      ],
    });
    const ids = (saved.values as Row[]).map((row) => Number(row.id));
    expect(ids, JSON.stringify(saved)).to.have.length(2);
    for (const [i, total] of [7.25, 8.5].entries()) {
      const items = await lineItems(ids[i]);
      expect(items.map((item) => item.line_total)).to.deep.equal([total]);
      const shares = await trxns(ids[i]);
      expect(shares).to.have.length(1);
      expect(shares[0]).to.include({ amount: total, 'financial_trxn_id.is_payment': i === 0 });
    }
  });

  it('4.3.0 skipLineItems=1 makes no line item', async () => {
    const made = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: 20,
      skipLineItems: 1,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    expect(await lineItems(Number(made.id))).to.have.length(0);
  });

  it('4.3 the legacy alias contribution_type_id sets the financial type', async () => {
    const made = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      contribution_type_id: 'Event Fee',
      total_amount: '15',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'Contribution', 'get', { id: made.id, return: ['financial_type_id'] });
    const types = await crm.api4(admin, 'FinancialType', 'get', { where: [['name', '=', 'Event Fee']] });
    expect(got.values[String(made.id)].financial_type_id).to.equal(String(types.values[0].id));
  });

  it('given line_items must add up to the total (bad input is an API error)', async () => {
    const bad = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: '10.00',
      line_items: [{ qty: 3, unit_price: '3.33' }],
    });
    expect(bad).to.include({ is_error: 1 });
    expect(String(bad.error_message)).to.match(/add up to 9.99/);
    const good = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: '10.00',
      line_items: [
        { qty: 3, unit_price: '3.33', label: 'Mugs' },
        { qty: 1, unit_price: '0.01', label: 'Sticker' },
      ],
    });
    expect(good, JSON.stringify(good)).to.include({ is_error: 0 });
    expect((await lineItems(Number(good.id))).map((item) => item.line_total)).to.deep.equal([9.99, 0.01]);
  });

  it('4.3.4 completetransaction: Pending becomes Completed, the receivable is paid; twice is refused', async () => {
    const made = await crm.api4(admin, 'Contribution', 'create', {
      values: {
        contact_id: ann,
        financial_type_id: 1,
        total_amount: '42.50',
        'contribution_status_id:name': 'Pending',
      },
    });
    const id = Number(made.values[0].id);
    const [receivable] = await trxns(id);
    expect(receivable).to.include({
      'financial_trxn_id.is_payment': false,
      'financial_trxn_id.to_financial_account_id.name': 'Accounts Receivable',
    });
    const done = await crm.api3(admin, 'Contribution', 'completetransaction', { id, trxn_id: 'T-42' });
    expect(done, JSON.stringify(done)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Contribution', 'get', {
      where: [['id', '=', id]],
      select: ['contribution_status_id:name', 'trxn_id'],
    });
    expect(got.values[0]).to.include({ 'contribution_status_id:name': 'Completed', trxn_id: 'T-42' });
    const shares = await trxns(id);
    expect(shares.map((share) => share['financial_trxn_id.is_payment'])).to.deep.equal([false, true]);
    expect(shares[1]).to.include({
      amount: 42.5,
      'financial_trxn_id.to_financial_account_id.name': 'Deposit Bank Account',
    });
    const again = await crm.api3(admin, 'Contribution', 'completetransaction', { id });
    expect(again).to.include({ is_error: 1, error_message: 'Contribution already completed' });
  });

  it('APIv4 get with a filter and joins (financial type name, contact name); update; delete', async () => {
    const made = await crm.api4(admin, 'Contribution', 'create', {
      values: { contact_id: ann, financial_type_id: 2, total_amount: '7.00', source: 'Fair' },
    });
    const id = Number(made.values[0].id);
    const got = await crm.api4(admin, 'Contribution', 'get', {
      select: ['total_amount', 'financial_type_id:label', 'contact_id.display_name'],
      where: [['source', '=', 'Fair']],
    });
    expect(got.values).to.have.length(1);
    expect(got.values[0]).to.include({
      total_amount: 7,
      'financial_type_id:label': 'Member Dues',
      'contact_id.display_name': 'Ann',
    });
    // The label's stored value is read for it, and not returned unless selected.
    expect(got.values[0]).to.not.have.property('financial_type_id');
    const both = await crm.api4(admin, 'Contribution', 'get', {
      select: ['financial_type_id', 'financial_type_id:name'],
      where: [['id', '=', id]],
    });
    expect(both.values[0]).to.deep.equal({ financial_type_id: 2, 'financial_type_id:name': 'Member Dues' });
    const updated = await crm.api4(admin, 'Contribution', 'update', {
      where: [['id', '=', id]],
      values: { source: 'Fete' },
    });
    expect(updated.values[0]).to.include({ source: 'Fete' });
    await crm.api4(admin, 'Contribution', 'delete', { where: [['id', '=', id]] });
    expect(await lineItems(id)).to.have.length(0);
    expect(await trxns(id)).to.have.length(0);
  });

  it('getfields lists total_amount as Money and the alias; a bad amount is an API error', async () => {
    const fields = await crm.api3(admin, 'Contribution', 'getfields', { action: 'create' });
    expect(fields.values.total_amount).to.include({ name: 'total_amount' });
    const bad = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: 'lots',
    });
    expect(bad).to.include({ is_error: 1 });
  });

  it('a create with a line item is 3 statements: the contribution, its line item, transaction and share in one', async () => {
    const params = {
      contact_id: ann,
      financial_type_id: 'Donation',
      total_amount: '12.50',
      line_items: [{ qty: 5, unit_price: '2.50', label: 'Tickets' }],
    };
    await crm.api3(admin, 'Contribution', 'create', params); // warm the option and account caches
    let made: Row = {};
    const sqls = await sqlDuring(crm.t.kernel.db, async () => {
      made = await crm.api3(admin, 'Contribution', 'create', params);
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    expect(
      sqls.map((sql) => sql.split(' ').slice(0, 3).join(' ').toLowerCase()),
      sqls.join('\n'),
    ).to.deep.equal(['begin;', 'with s0 as', 'commit;']);
    expect(sqls[1]).to.match(
      /insert into "crm_contribution".*insert into "crm_line_item".*insert into "crm_financial_trxn".*insert into "crm_entity_financial_trxn"/,
    );
    const [item] = await lineItems(Number(made.id));
    expect(item).to.include({ label: 'Tickets', qty: 5 });
    const [share] = await trxns(Number(made.id));
    expect(share).to.include({ amount: 12.5 });
  });
  it('a financial type made or renamed through the API is usable by its name at once (option lists follow their source)', async () => {
    const made = await crm.api3(admin, 'FinancialType', 'create', { name: 'Grants', is_active: 1 });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const grant = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Grants',
      total_amount: '3',
    });
    expect(grant, JSON.stringify(grant)).to.include({ is_error: 0 });
    await crm.api3(admin, 'FinancialType', 'create', { id: made.id, name: 'Bursaries' });
    const read = await crm.api4(admin, 'Contribution', 'get', {
      select: ['financial_type_id:name'],
      where: [['id', '=', grant.id]],
    });
    expect(read.values).to.deep.equal([{ 'financial_type_id:name': 'Bursaries' }]);
  });
  it('a new default deposit account is used at once (the remembered one is forgotten when accounts change)', async () => {
    const completed = { contact_id: ann, financial_type_id: 'Donation', total_amount: '4', contribution_status_id: 1 };
    const depositOf = async (made: Row) =>
      (await trxns(Number(made.id)))[0]['financial_trxn_id.to_financial_account_id.name'];
    // The first completed contribution makes the deposit account remembered.
    expect(await depositOf(await crm.api3(admin, 'Contribution', 'create', completed))).to.equal(
      'Deposit Bank Account',
    );
    const bank = (await crm.api4(admin, 'FinancialAccount', 'get', { where: [['name', '=', 'Deposit Bank Account']] }))
      .values[0] as Row;
    const account = await crm.api4(admin, 'FinancialAccount', 'create', {
      values: { name: 'New bank', financial_account_type_id: 1, is_default: true },
    });
    await crm.api4(admin, 'FinancialAccount', 'update', {
      where: [['id', '=', bank.id]],
      values: { is_default: false },
    });
    expect(await depositOf(await crm.api3(admin, 'Contribution', 'create', completed))).to.equal('New bank');
    await crm.api4(admin, 'FinancialAccount', 'update', {
      where: [['id', '=', bank.id]],
      values: { is_default: true },
    });
    await crm.api4(admin, 'FinancialAccount', 'update', {
      where: [['id', '=', account.values[0].id]],
      values: { is_default: false, is_active: false },
    });
  });
});
