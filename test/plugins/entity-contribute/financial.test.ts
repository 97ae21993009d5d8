/** The financial entities over HTTP: seeds, CRUD with filters and joins, getfields, permissions and row access. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-contribute: financial entities over HTTP', function () {
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

  it('seeds the reference financial types, each with its income and receivable accounts', async () => {
    const types = await crm.api4(admin, 'FinancialType', 'get', {
      select: ['id', 'name', 'is_deductible'],
      orderBy: { id: 'ASC' },
    });
    expect(types.values.map((type: Row) => type.name)).to.deep.equal([
      'Donation',
      'Member Dues',
      'Campaign Contribution',
      'Event Fee',
    ]);
    const links = await crm.api4(admin, 'EntityFinancialAccount', 'get', {
      select: ['account_relationship:name', 'financial_account_id.name'],
      where: [
        ['entity_table', '=', 'civicrm_financial_type'],
        ['entity_id', '=', types.values[3].id],
      ],
      orderBy: { account_relationship: 'ASC' },
    });
    expect(
      links.values.map((link: Row) => [link['account_relationship:name'], link['financial_account_id.name']]),
    ).to.deep.include.members([
      ['Income Account is', 'Event Fee'],
      ['Accounts Receivable Account is', 'Accounts Receivable'],
    ]);
  });

  it('FinancialType and FinancialAccount: create, get with a filter, update, delete, getfields', async () => {
    const account = await crm.api3(admin, 'FinancialAccount', 'create', { name: 'Grants', accounting_code: '4500' });
    expect(account, JSON.stringify(account)).to.include({ is_error: 0 });
    expect(account.values[String(account.id)]).to.include({ financial_account_type_id: '3', is_active: '1' });
    const type = await crm.api3(admin, 'FinancialType', 'create', { name: 'Grant', is_deductible: 0 });
    const link = await crm.api3(admin, 'EntityFinancialAccount', 'create', {
      entity_id: type.id,
      account_relationship: 'Income Account is',
      financial_account_id: account.id,
    });
    expect(link, JSON.stringify(link)).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'EntityFinancialAccount', 'get', {
      entity_id: type.id,
      return: ['financial_account_id.accounting_code'],
    });
    expect(got.values[String(link.id)]['financial_account_id.accounting_code']).to.equal('4500');
    const renamed = await crm.api4(admin, 'FinancialType', 'update', {
      where: [['id', '=', type.id]],
      values: { name: 'Grants' },
    });
    expect(renamed.values[0]).to.include({ name: 'Grants' });
    const fields = await crm.api4(admin, 'FinancialAccount', 'getFields', { select: ['name', 'data_type'] });
    expect(fields.values.map((field: Row) => field.name)).to.include.members([
      'financial_account_type_id',
      'accounting_code',
    ]);
    expect(await crm.api3(admin, 'FinancialType', 'delete', { id: type.id })).to.include({ is_error: 0 });
    expect((await crm.api3(admin, 'EntityFinancialAccount', 'get', { id: link.id })).count).to.equal(0);
    // An account still in use by a type is not deleted.
    const used = await crm.api4(admin, 'FinancialAccount', 'get', { where: [['name', '=', 'Donation']] });
    const refused = await crm.api3(admin, 'FinancialAccount', 'delete', { id: used.values[0].id });
    expect(refused).to.include({ is_error: 1 });
  });

  it('FinancialAccount: a new default takes the place of the old one of its account type only', async () => {
    const defaults = async () =>
      (
        await crm.api4(admin, 'FinancialAccount', 'get', {
          select: ['name', 'financial_account_type_id:name'],
          where: [['is_default', '=', true]],
          orderBy: { id: 'ASC' },
        })
      ).values.map((row: Row) => `${String(row['financial_account_type_id:name'])}: ${String(row.name)}`);
    const before = await defaults();
    const made = await crm.api4(admin, 'FinancialAccount', 'create', {
      values: { name: 'Main Bank', financial_account_type_id: 1, is_default: true },
    });
    expect(made, JSON.stringify(made)).to.not.have.property('error_message');
    const after = await defaults();
    expect(after).to.include('Asset: Main Bank');
    expect(after.filter((line: string) => line.startsWith('Asset: '))).to.deep.equal(['Asset: Main Bank']);
    // Defaults of the other account types stay as they were.
    expect(after.filter((line: string) => !line.startsWith('Asset: '))).to.deep.equal(
      before.filter((line: string) => !line.startsWith('Asset: ')),
    );
  });

  it('LineItem, FinancialTrxn, EntityFinancialTrxn: create, get with a join, update, delete, getfields', async () => {
    const contribution = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: '5.00',
      skipLineItems: 1,
    });
    const item = await crm.api3(admin, 'LineItem', 'create', {
      entity_id: contribution.id,
      contribution_id: contribution.id,
      qty: 2,
      unit_price: '2.50',
      line_total: '5.00',
      financial_type_id: 1,
    });
    expect(item, JSON.stringify(item)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'LineItem', 'get', {
      select: ['line_total', 'financial_type_id.name', 'contribution_id.contact_id.display_name'],
      where: [['contribution_id', '=', contribution.id]],
    });
    expect(got.values[0]).to.include({
      'financial_type_id.name': 'Donation',
      'contribution_id.contact_id.display_name': 'Ann',
    });
    const changed = await crm.api4(admin, 'LineItem', 'update', {
      where: [['id', '=', item.id]],
      values: { label: 'Two' },
    });
    expect(changed.values[0]).to.include({ label: 'Two' });
    const trxn = await crm.api4(admin, 'FinancialTrxn', 'create', {
      values: { total_amount: '1.25', is_payment: true },
    });
    const share = await crm.api4(admin, 'EntityFinancialTrxn', 'create', {
      values: { entity_id: contribution.id, financial_trxn_id: trxn.values[0].id, amount: '1.25' },
    });
    expect(share.values[0]).to.include({ entity_table: 'civicrm_contribution' });
    const fields = await crm.api3(admin, 'FinancialTrxn', 'getfields', {});
    expect(fields.values).to.have.property('total_amount');
    await crm.api4(admin, 'FinancialTrxn', 'delete', { where: [['id', '=', trxn.values[0].id]] });
    expect(
      (await crm.api4(admin, 'EntityFinancialTrxn', 'get', { where: [['id', '=', share.values[0].id]] })).values,
    ).to.have.length(0);
    expect(await crm.api3(admin, 'LineItem', 'delete', { id: item.id })).to.include({ is_error: 0 });
  });

  it('permissions: access CiviContribute (compat alias) reads, edit contributions writes, delete needs its own', async () => {
    const reader = (await crm.userWith('reader', ['access CiviCRM', 'access CiviContribute', 'view all contacts']))
      .headers;
    const made = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: 3,
    });
    expect((await crm.api3(reader, 'Contribution', 'get', { id: made.id })).count).to.equal(1);
    expect(
      await crm.api3(reader, 'Contribution', 'create', { contact_id: ann, financial_type_id: 1, total_amount: 3 }),
    ).to.include({
      is_error: 1,
    });
    const editor = (
      await crm.userWith('editor', [
        'access CRM',
        'access contributions',
        'edit contributions',
        'edit all contacts',
        'view all contacts',
      ])
    ).headers;
    expect(
      await crm.api3(editor, 'Contribution', 'create', { contact_id: ann, financial_type_id: 1, total_amount: 3 }),
    ).to.include({
      is_error: 0,
    });
    expect(await crm.api3(editor, 'Contribution', 'delete', { id: made.id })).to.include({ is_error: 1 });
    expect(await crm.api3(editor, 'FinancialType', 'create', { name: 'Nope' })).to.include({ is_error: 1 });
    const outsider = (await crm.userWith('outsider', ['access CRM'])).headers;
    expect(await crm.api3(outsider, 'Contribution', 'get', {})).to.include({ is_error: 1 });
  });

  it('row access: without access to the contributor the contribution is not seen', async () => {
    const blind = (await crm.userWith('blind', ['access CRM', 'access contributions'])).headers;
    const made = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 1,
      total_amount: 4,
    });
    expect((await crm.api3(blind, 'Contribution', 'get', { id: made.id })).count).to.equal(0);
    expect(await crm.api3(blind, 'Contribution', 'completetransaction', { id: made.id })).to.include({ is_error: 1 });
  });
});
