/**
 * Issue 13's whole flow over HTTP, across the contribution, payment, event and membership plugins: a member
 * pays an event fee through a contribution page (pay later, then completed), becomes a registered
 * participant, renews her membership paying the dues through a page's processor, and the books balance —
 * every contribution's line items and payments add up to its total, exactly.
 */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../support/entity-http';

const cents = (value: unknown) => Math.round(Number(value) * 100);

describe('a member pays an event fee through a page, is registered, renews; the books balance (issue 13)', function () {
  this.timeout(90000);
  let crm: EntityHttp;
  let admin: Headers;
  let ann: { headers: Headers; contactId: number };

  before(async () => {
    crm = await bootEntityHttp({
      plugins: ['entity-contribute', 'payment', 'entity-event', 'entity-member', 'compat-civicrm'],
    });
    admin = (await crm.userWith('root', ['*'])).headers;
    ann = await crm.userWith('ann', ['make online contributions']);
  });
  after(() => crm?.t.close());

  const ok = (answer: Row) => {
    expect(answer, JSON.stringify(answer)).to.include({ is_error: 0 });
    return answer;
  };

  it('pays, registers, renews, and every contribution balances', async () => {
    const processor = ok(
      await crm.api3(admin, 'PaymentProcessor', 'create', { name: 'Desk', payment_processor_type_id: 'Dummy' }),
    );
    const feesPage = ok(
      await crm.api3(admin, 'ContributionPage', 'create', {
        title: 'Event fees',
        financial_type_id: 'Event Fee',
        is_pay_later: 1,
        payment_processor: processor.id,
      }),
    );
    const duesPage = ok(
      await crm.api3(admin, 'ContributionPage', 'create', {
        title: 'Membership dues',
        financial_type_id: 'Member Dues',
        payment_processor: processor.id,
      }),
    );
    const club = ok(
      await crm.api3(admin, 'Contact', 'create', { contact_type: 'Organization', organization_name: 'Club' }),
    );
    const type = ok(
      await crm.api3(admin, 'MembershipType', 'create', {
        name: 'Yearly',
        member_of_contact_id: club.id,
        financial_type_id: 'Member Dues',
        duration_unit: 'year',
        duration_interval: 1,
        period_type: 'rolling',
        minimum_fee: '50.00',
      }),
    );
    const today = new Date().toISOString().slice(0, 10);
    const membership = ok(
      await crm.api3(admin, 'Membership', 'create', {
        contact_id: ann.contactId,
        membership_type_id: type.id,
        join_date: today,
      }),
    );
    const before = await crm.api3(admin, 'Membership', 'getsingle', { id: membership.id });
    const event = ok(
      await crm.api3(admin, 'Event', 'create', {
        title: 'Annual conference',
        event_type_id: 'Conference',
        start_date: `${new Date().getFullYear() + 1}-03-01 09:00:00`,
      }),
    );

    // She registers, pending payment, and pays the fee through the page later (a cheque at the desk).
    const participant = ok(
      await crm.api3(admin, 'Participant', 'create', {
        contact_id: ann.contactId,
        event_id: event.id,
        status_id: 'Pending from pay later',
        is_pay_later: 1,
      }),
    );
    const fee = ok(
      await crm.api3(ann.headers, 'ContributionPage', 'submit', { id: feesPage.id, amount: '40.00', is_pay_later: 1 }),
    );
    ok(
      await crm.api3(admin, 'ParticipantPayment', 'create', {
        participant_id: participant.id,
        contribution_id: fee.id,
      }),
    );
    ok(await crm.api3(admin, 'Contribution', 'completetransaction', { id: fee.id, trxn_id: 'CHEQUE-17' }));
    const registered = await crm.api4(admin, 'Participant', 'get', {
      select: ['status_id:name', 'contact_id'],
      where: [['id', '=', participant.id]],
    });
    expect(registered.values[0]).to.include({ 'status_id:name': 'Registered', contact_id: ann.contactId });

    // She renews: the dues are paid through the page's processor, the membership runs a year longer.
    const dues = ok(await crm.api3(ann.headers, 'ContributionPage', 'submit', { id: duesPage.id, amount: '50.00' }));
    ok(await crm.api3(admin, 'Membership', 'create', { id: membership.id, num_terms: 1 }));
    ok(
      await crm.api3(admin, 'MembershipPayment', 'create', { membership_id: membership.id, contribution_id: dues.id }),
    );
    const after = await crm.api3(admin, 'Membership', 'getsingle', { id: membership.id });
    const year = (date: unknown) => Number(String(date).slice(0, 4));
    expect(year(after.end_date)).to.equal(year(before.end_date) + 1);
    expect(String(after.end_date).slice(4)).to.equal(String(before.end_date).slice(4));
    expect(after.start_date).to.equal(before.start_date);

    // The books: both contributions Completed, for her; line items and payments each add up to the total.
    const contributions = await crm.api4(admin, 'Contribution', 'get', {
      select: ['id', 'total_amount', 'contact_id', 'contribution_status_id:name', 'financial_type_id:name'],
      where: [['id', 'IN', [fee.id, dues.id]]],
      orderBy: { id: 'ASC' },
    });
    expect(
      contributions.values.map((row) => [row['financial_type_id:name'], row['contribution_status_id:name']]),
    ).to.deep.equal([
      ['Event Fee', 'Completed'],
      ['Member Dues', 'Completed'],
    ]);
    for (const contribution of contributions.values) {
      expect(contribution.contact_id).to.equal(ann.contactId);
      const items = await crm.api4(admin, 'LineItem', 'get', { where: [['contribution_id', '=', contribution.id]] });
      const itemsTotal = items.values.reduce((total, item) => total + cents(item.line_total), 0);
      expect(itemsTotal, 'line items').to.equal(cents(contribution.total_amount));
      const shares = await crm.api4(admin, 'EntityFinancialTrxn', 'get', {
        select: ['amount', 'financial_trxn_id.is_payment'],
        where: [
          ['entity_table', '=', 'civicrm_contribution'],
          ['entity_id', '=', contribution.id],
        ],
      });
      const paid = shares.values
        .filter((share) => share['financial_trxn_id.is_payment'])
        .reduce((total, share) => total + cents(share.amount), 0);
      expect(paid, 'payments').to.equal(cents(contribution.total_amount));
    }
    const links = await crm.api4(admin, 'MembershipPayment', 'get', {
      select: ['contribution_id.total_amount'],
      where: [['membership_id', '=', membership.id]],
    });
    expect(links.values.map((row) => cents(row['contribution_id.total_amount']))).to.deep.equal([5000]);
  });
});
