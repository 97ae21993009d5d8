/**
 * ContributionPage over HTTP and ContributionPage.submit (4.5.0): a contribution made through a page and paid
 * through its processor (the payment plugin's manager, 4.6), refused payments, pay later and test mode.
 */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';
import { seen } from '../../fixtures/payment-plugins/shared';
import { bootCrm } from './http';

describe('entity-contribute: ContributionPage and submit over HTTP', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let donor: { headers: Headers; contactId: number };
  let processorId: number;
  let pageId: number;

  before(async () => {
    crm = await bootEntityHttp({
      plugins: ['entity-contribute', 'payment', 'compat-civicrm', 'pay-fixture'],
      pluginDirs: ['test/fixtures/payment-plugins'],
    });
    admin = (await crm.userWith('root', ['*'])).headers;
    donor = await crm.userWith('donor', ['make online contributions']);
    const processor = await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'Dummy live',
      payment_processor_type_id: 'Dummy',
      user_name: 'merchant',
      password: 'processor-password-1',
    });
    processorId = Number(processor.id);
    await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'Dummy live',
      payment_processor_type_id: 'Dummy',
      is_test: 1,
    });
    const page = await crm.api3(admin, 'ContributionPage', 'create', {
      title: 'Spring appeal',
      financial_type_id: 'Campaign Contribution',
      payment_processor_id: processorId,
      currency: 'USD',
    });
    expect(page, JSON.stringify(page)).to.include({ is_error: 0 });
    pageId = Number(page.id);
  });
  after(() => crm?.t.close());

  const contributionsOf = async (where: unknown[]) =>
    (
      await crm.api4(admin, 'Contribution', 'get', {
        select: ['*', 'contribution_status_id:name', 'financial_type_id:name', 'contact_id.display_name'],
        where,
      })
    ).values as Row[];
  const ledgerOf = async (contributionId: number) => ({
    items: (await crm.api4(admin, 'LineItem', 'get', { where: [['contribution_id', '=', contributionId]] })).values,
    shares: (
      await crm.api4(admin, 'EntityFinancialTrxn', 'get', {
        select: [
          'amount',
          'financial_trxn_id.is_payment',
          'financial_trxn_id.trxn_id',
          'financial_trxn_id.payment_processor_id',
          'financial_trxn_id.to_financial_account_id.name',
        ],
        where: [
          ['entity_table', '=', 'civicrm_contribution'],
          ['entity_id', '=', contributionId],
        ],
        orderBy: { id: 'ASC' },
      })
    ).values as Row[],
  });

  it('ContributionPage create (financial_type_id required, payment_processor_id alias), get, update, getfields', async () => {
    const got = await crm.api3(admin, 'ContributionPage', 'getsingle', { id: pageId });
    expect(got, JSON.stringify(got)).to.include({
      title: 'Spring appeal',
      frontend_title: 'Spring appeal',
      name: 'spring_appeal',
      is_active: '1',
      is_monetary: '1',
      is_pay_later: '0',
    });
    expect(got.payment_processor).to.deep.equal([String(processorId)]);
    const missing = await crm.api3(admin, 'ContributionPage', 'create', { title: 'No type' });
    expect(missing.is_error).to.equal(1);
    expect(String(missing.error_message)).to.contain('financial_type_id');
    const updated = await crm.api4(admin, 'ContributionPage', 'update', {
      where: [['id', '=', pageId]],
      values: { goal_amount: 5000.5, min_amount: 1 },
    });
    expect(updated.values[0]).to.include({ goal_amount: 5000.5 });
    const fields = await crm.api3(admin, 'ContributionPage', 'getfields', { action: 'create' });
    expect(fields.values.financial_type_id).to.include({ 'api.required': 1 });
    expect(fields.values.payment_processor['api.aliases']).to.include('payment_processor_id');
    const refused = await crm.api3(donor.headers, 'ContributionPage', 'create', { title: 'X', financial_type_id: 1 });
    expect(refused.is_error).to.equal(1);
    const readable = await crm.api4(donor.headers, 'ContributionPage', 'get', { select: ['title'] });
    expect(readable.values.map((page: Row) => page.title)).to.include('Spring appeal');
  });

  it('4.5.0 APIv3 submit: a new contact by email pays through the Dummy processor; Completed with line item and ledger', async () => {
    const before = seen().length;
    const made = await crm.api3(donor.headers, 'ContributionPage', 'submit', {
      id: pageId,
      amount: '25.10',
      email: 'new.donor@example.org',
      first_name: 'Nova',
      last_name: 'Donor',
      credit_card_number: '4111111111111111',
      cvv2: '123',
      credit_card_type: 'Visa',
      credit_card_exp_date: { M: 9, Y: 2040 },
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const id = Number(made.id);
    const [row] = await contributionsOf([['id', '=', id]]);
    expect(row).to.include({
      'contribution_status_id:name': 'Completed',
      'financial_type_id:name': 'Campaign Contribution',
      'contact_id.display_name': 'Nova Donor',
      contribution_page_id: pageId,
      total_amount: 25.1,
      fee_amount: 1.5,
      net_amount: 23.6,
      is_test: false,
      is_pay_later: false,
    });
    expect(row.trxn_id).to.match(/^live_[0-9a-f]{16}$/);
    const { items, shares } = await ledgerOf(id);
    expect(items).to.have.length(1);
    expect(items[0]).to.include({ qty: 1, unit_price: 25.1, line_total: 25.1 });
    expect(shares.map((share) => share['financial_trxn_id.is_payment'])).to.deep.equal([false, true]);
    expect(shares[1]).to.include({
      amount: 25.1,
      'financial_trxn_id.trxn_id': row.trxn_id,
      'financial_trxn_id.payment_processor_id': processorId,
      'financial_trxn_id.to_financial_account_id.name': 'Deposit Bank Account',
    });
    expect(seen().slice(before)).to.deep.equal([`completed:${id}`]);
    const again = await crm.api3(donor.headers, 'ContributionPage', 'submit', {
      id: pageId,
      amount: 5,
      email: 'new.donor@example.org',
    });
    expect(again, JSON.stringify(again)).to.include({ is_error: 0 });
    expect(Number(again.values[0].contact_id)).to.equal(Number(row.contact_id));
    const logged = JSON.stringify(crm.t.logs);
    expect(logged).not.to.contain('4111111111111111');
    expect(logged).not.to.contain('processor-password-1');
  });

  it('4.5.0 a refused payment is an API error and writes nothing (no contribution, no contact)', async () => {
    const count = (await crm.api4(admin, 'Contribution', 'get', { select: ['row_count'] })).count;
    const failed = await crm.api3(donor.headers, 'ContributionPage', 'submit', {
      id: pageId,
      amount: 40,
      email: 'declined@example.org',
      credit_card_number: '4000 0000 0000 0002',
    });
    expect(failed, JSON.stringify(failed)).to.include({ is_error: 1, error_code: 'card_declined' });
    expect(String(failed.error_message)).to.contain('Payment failed: The card was declined');
    expect((await crm.api4(admin, 'Contribution', 'get', { select: ['row_count'] })).count).to.equal(count);
    const emails = await crm.api4(admin, 'Email', 'get', { where: [['email', '=', 'declined@example.org']] });
    expect(emails.values).to.have.length(0);
    const http = await crm.t.http();
    const v4 = await http
      .post('/crm/ajax/api4/ContributionPage/submit')
      .set(donor.headers)
      .type('form')
      .send({ params: JSON.stringify({ id: pageId, amount: 40, credit_card_number: '4000000000000002' }) });
    expect(v4.status).to.equal(402);
    expect(JSON.stringify(v4.body)).to.contain('card was declined');
  });

  it('4.5.0 APIv4 end to end: a processor type of a plugin-registered class, a processor, a page, a submit', async () => {
    const type = await crm.api4(admin, 'PaymentProcessorType', 'create', {
      values: { name: 'Fixture', title: 'Fixture processor', class_name: 'Payment_Fixture', billing_mode: 1 },
    });
    const processor = await crm.api4(admin, 'PaymentProcessor', 'create', {
      values: { name: 'Fixture one', payment_processor_type_id: type.values[0].id, user_name: 'fx' },
    });
    const page = await crm.api4(admin, 'ContributionPage', 'create', {
      values: {
        title: 'Fixture page',
        'financial_type_id:name': 'Donation',
        payment_processor: [processor.values[0].id],
      },
    });
    const submitted = await crm.api4(donor.headers, 'ContributionPage', 'submit', {
      id: page.values[0].id,
      amount: 12.34,
    });
    expect(submitted.values, JSON.stringify(submitted)).to.have.length(1);
    const id = Number(submitted.values[0].id);
    expect(submitted.values[0]).to.include({ contact_id: donor.contactId, trxn_id: `fixture-${id}` });
    const [row] = await contributionsOf([['id', '=', id]]);
    expect(row).to.include({ 'contribution_status_id:name': 'Completed', 'financial_type_id:name': 'Donation' });
    expect(seen()).to.include.members(['paid:fx:12.34', `completed:${id}`]);
    expect((await ledgerOf(id)).items[0]).to.include({ line_total: 12.34 });
  });

  it('4.5.0 a pay-later page makes a Pending contribution (a receivable), completed later', async () => {
    const page = await crm.api3(admin, 'ContributionPage', 'create', {
      title: 'Pledge drive',
      financial_type_id: 1,
      is_pay_later: 1,
      pay_later_text: 'Send a check',
    });
    const made = await crm.api3(donor.headers, 'ContributionPage', 'submit', { id: page.id, amount: 60 });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const id = Number(made.id);
    const [row] = await contributionsOf([['id', '=', id]]);
    expect(row).to.include({ 'contribution_status_id:name': 'Pending', is_pay_later: true, trxn_id: null });
    const { items, shares } = await ledgerOf(id);
    expect(items).to.have.length(1);
    expect(shares).to.have.length(1);
    expect(shares[0]).to.include({ 'financial_trxn_id.is_payment': false });
    const done = await crm.api3(admin, 'Contribution', 'completetransaction', { id, trxn_id: 'CHECK-1' });
    expect(done, JSON.stringify(done)).to.include({ is_error: 0 });
    const chose = await crm.api3(donor.headers, 'ContributionPage', 'submit', {
      id: pageId,
      amount: 5,
      is_pay_later: 1,
    });
    expect(chose.is_error).to.equal(1);
    expect(String(chose.error_message)).to.contain('does not take pay later');
  });

  it('4.5.0 test mode pays through the test processor of the same name', async () => {
    const made = await crm.api3(donor.headers, 'ContributionPage', 'submit', { id: pageId, amount: 3, is_test: 1 });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const [row] = await contributionsOf([['id', '=', Number(made.id)]]);
    expect(row).to.include({ is_test: true, 'contribution_status_id:name': 'Completed' });
    expect(row.trxn_id).to.match(/^test_/);
  });

  it('4.5.0 submit is refused without make online contributions, for others, with unknown keys, bad amounts', async () => {
    const staff = await crm.userWith('staff', ['access CRM']);
    const denied = await crm.api3(staff.headers, 'ContributionPage', 'submit', { id: pageId, amount: 5 });
    expect(denied.is_error).to.equal(1);
    const forOther = await crm.api3(donor.headers, 'ContributionPage', 'submit', {
      id: pageId,
      amount: 5,
      contact_id: staff.contactId,
    });
    expect(String(forOther.error_message)).to.contain('edit contributions');
    const cases: Array<[Row, string]> = [
      [{ id: pageId, amount: 5, colour: 'red' }, 'Unknown parameters for submit: colour'],
      [{ id: pageId, amount: 0 }, 'more than 0'],
      [{ id: pageId, amount: 'ten' }, 'not a valid amount'],
      [{ id: pageId }, 'amount'],
      [{ id: 99999, amount: 5 }, 'not found'],
      [{ id: pageId, amount: 5, payment_processor_id: 99999 }, "not one of this page's"],
    ];
    for (const [params, message] of cases) {
      const answer = await crm.api3(donor.headers, 'ContributionPage', 'submit', params);
      expect(answer.is_error, JSON.stringify(params)).to.equal(1);
      expect(String(answer.error_message), JSON.stringify(params)).to.contain(message);
    }
    await crm.api3(admin, 'ContributionPage', 'create', { id: pageId, is_active: 0 });
    const closed = await crm.api3(donor.headers, 'ContributionPage', 'submit', { id: pageId, amount: 5 });
    expect(String(closed.error_message)).to.contain('not open');
    await crm.api3(admin, 'ContributionPage', 'create', { id: pageId, is_active: 1 });
  });

  it('4.5.0 without the payment plugin a page with processors refuses to take the payment', async () => {
    const bare = await bootCrm();
    try {
      const root = (await bare.userWith('root', ['*'])).headers;
      const page = await bare.api3(root, 'ContributionPage', 'create', {
        title: 'No processors here',
        financial_type_id: 1,
        payment_processor: [1],
      });
      const count = (await bare.api4(root, 'Contribution', 'get', { select: ['row_count'] })).count;
      const answer = await bare.api3(root, 'ContributionPage', 'submit', { id: page.id, amount: 5 });
      expect(answer, JSON.stringify(answer)).to.include({ is_error: 1 });
      expect(String(answer.error_message)).to.contain('No payment plugin is enabled');
      expect((await bare.api4(root, 'Contribution', 'get', { select: ['row_count'] })).count).to.equal(count);
    } finally {
      await bare.t.close();
    }
  });
});
