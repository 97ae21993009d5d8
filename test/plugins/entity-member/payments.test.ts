/** MembershipPayment over HTTP: linking a contribution, and a Pending membership completed with its contribution. */
import { expect } from 'chai';
import { addUnits, today } from '../../../plugins/entity-member';
import { bootCrm, type Crm, type Headers, type Row } from './http';

describe('entity-member: MembershipPayment over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;
  let typeId: number;
  const now = today();

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const person = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Ann' },
    });
    ann = Number(person.values[0].id);
    const club = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Organization', organization_name: 'Club' },
    });
    const type = await crm.api4(admin, 'MembershipType', 'create', {
      values: {
        name: 'General',
        member_of_contact_id: club.values[0].id,
        financial_type_id: 2,
        duration_unit: 'year',
        duration_interval: 1,
        period_type: 'rolling',
        minimum_fee: 50,
      },
    });
    typeId = Number(type.values[0].id);
  });
  after(() => crm?.t.close());

  const pendingMembership = async () =>
    crm.api3(admin, 'Membership', 'create', {
      contact_id: ann,
      membership_type_id: typeId,
      status_id: 'Pending',
      skipStatusCal: 1,
      join_date: '2023-04-01',
    });
  const pendingContribution = async () =>
    crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Member Dues',
      total_amount: '50.00',
      contribution_status_id: 'Pending',
    });

  it('create, get with a join, delete; the contribution and membership pair is unique', async () => {
    const membership = await pendingMembership();
    const contribution = await pendingContribution();
    const link = await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: membership.id,
      contribution_id: contribution.id,
    });
    expect(link, JSON.stringify(link)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'MembershipPayment', 'get', {
      select: ['contribution_id.total_amount', 'membership_id.status_id:name'],
      where: [['membership_id', '=', Number(membership.id)]],
    });
    expect(got.values[0]).to.include({ 'contribution_id.total_amount': 50, 'membership_id.status_id:name': 'Pending' });
    const again = await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: membership.id,
      contribution_id: contribution.id,
    });
    expect(again).to.include({ is_error: 1 });
    const fields = await crm.api3(admin, 'MembershipPayment', 'getfields', {});
    expect(fields.values).to.include.keys('membership_id', 'contribution_id');
    expect((await crm.api3(admin, 'MembershipPayment', 'delete', { id: link.id })).is_error).to.equal(0);
  });

  it('4.3.4 completetransaction: a Pending membership paid by the contribution starts that day and becomes current', async () => {
    const membership = await pendingMembership();
    const contribution = await pendingContribution();
    await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: membership.id,
      contribution_id: contribution.id,
    });
    const done = await crm.api3(admin, 'Contribution', 'completetransaction', { id: contribution.id });
    expect(done, JSON.stringify(done)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Membership', 'get', {
      select: ['join_date', 'start_date', 'end_date', 'status_id:name'],
      where: [['id', '=', Number(membership.id)]],
    });
    expect(got.values[0]).to.include({
      join_date: '2023-04-01',
      start_date: now,
      end_date: addUnits(addUnits(now, 'year', 1), 'day', -1),
      'status_id:name': 'Current',
    } as Row);
  });

  const paidBy = async (membershipId: unknown, terms?: number) => {
    // With `terms`: the contribution's line item pays for the membership, for that many terms (as a price set's
    // membership option does); without: a plain contribution linked by MembershipPayment.
    const contribution = terms
      ? await crm.api3(admin, 'Contribution', 'create', {
          contact_id: ann,
          financial_type_id: 'Member Dues',
          total_amount: '100.00',
          contribution_status_id: 'Pending',
          line_items: [
            {
              qty: 1,
              unit_price: '100.00',
              entity_table: 'civicrm_membership',
              entity_id: membershipId,
              membership_num_terms: terms,
            },
          ],
        })
      : await pendingContribution();
    expect(contribution, JSON.stringify(contribution)).to.include({ is_error: 0 });
    await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: membershipId,
      contribution_id: contribution.id,
    });
    const done = await crm.api3(admin, 'Contribution', 'completetransaction', { id: contribution.id });
    expect(done, JSON.stringify(done)).to.include({ is_error: 0 });
    return (
      await crm.api4(admin, 'Membership', 'get', {
        select: ['join_date', 'start_date', 'end_date', 'status_id:name', 'is_override'],
        where: [['id', '=', Number(membershipId)]],
      })
    ).values[0];
  };

  it('4.3.4 completetransaction renews a current membership it pays for: its end date moves on by a term', async () => {
    const membership = await crm.api3(admin, 'Membership', 'create', {
      contact_id: ann,
      membership_type_id: typeId,
      join_date: now,
    });
    expect(await crm.api3(admin, 'Membership', 'getsingle', { id: membership.id })).to.include({
      start_date: now,
      end_date: addUnits(addUnits(now, 'year', 1), 'day', -1),
    });
    expect(await paidBy(membership.id)).to.include({
      join_date: now,
      start_date: now,
      end_date: addUnits(addUnits(now, 'year', 2), 'day', -1),
      'status_id:name': 'New',
    } as Row);
  });

  it('completetransaction renews by the terms its line item for the membership paid for, and lifts a status override', async () => {
    const membership = await crm.api3(admin, 'Membership', 'create', {
      contact_id: ann,
      membership_type_id: typeId,
      join_date: now,
      is_override: 1,
      status_id: 'Grace',
    });
    expect(await paidBy(membership.id, 2)).to.include({
      start_date: now,
      end_date: addUnits(addUnits(now, 'year', 3), 'day', -1),
      'status_id:name': 'New',
      is_override: false,
    } as Row);
    // The line item points at the membership (and goes with it when the membership is deleted).
    const lines = async () =>
      (
        await crm.api4(admin, 'LineItem', 'get', {
          where: [
            ['entity_table', '=', 'civicrm_membership'],
            ['entity_id', '=', Number(membership.id)],
          ],
        })
      ).values;
    expect((await lines()).map((line) => line.membership_num_terms)).to.deep.equal([2]);
    await crm.api3(admin, 'Membership', 'delete', { id: membership.id });
    expect(await lines()).to.deep.equal([]);
  });

  it("a line for a price option takes the option's terms (and field, label, amount); a renewal extends by them", async () => {
    const set = await crm.api4(admin, 'PriceSet', 'create', {
      values: { name: 'dues', title: 'Dues', extends: 'CiviMember', financial_type_id: 2 },
    });
    expect(set.values, JSON.stringify(set)).to.have.length(1);
    const field = await crm.api4(admin, 'PriceField', 'create', {
      values: { price_set_id: set.values[0].id, name: 'level', label: 'Level', html_type: 'Radio' },
    });
    const option = async (name: string, values: Row) =>
      Number(
        (
          await crm.api4(admin, 'PriceFieldValue', 'create', {
            values: { price_field_id: field.values[0].id, name, label: name, amount: 100, ...values },
          })
        ).values[0].id,
      );
    const threeYears = await option('three_years', { membership_type_id: typeId, membership_num_terms: 3 });
    const noTerms = await option('one_term', { membership_type_id: typeId });
    const membership = await crm.api3(admin, 'Membership', 'create', {
      contact_id: ann,
      membership_type_id: typeId,
      join_date: now,
    });
    const contribution = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Member Dues',
      total_amount: '200.00',
      contribution_status_id: 'Pending',
      line_items: [
        {
          unit_price: '100.00',
          price_field_value_id: threeYears,
          entity_table: 'civicrm_membership',
          entity_id: membership.id,
        },
        { unit_price: '100.00', price_field_value_id: noTerms, label: 'Not a renewal' },
      ],
    });
    expect(contribution, JSON.stringify(contribution)).to.include({ is_error: 0 });
    const lines = await crm.api4(admin, 'LineItem', 'get', {
      select: ['membership_num_terms'],
      where: [['contribution_id', '=', Number(contribution.id)]],
      orderBy: { id: 'ASC' },
    });
    expect(lines.values.map((line) => line.membership_num_terms)).to.deep.equal([3, 1]);
    await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: membership.id,
      contribution_id: contribution.id,
    });
    expect(await crm.api3(admin, 'Contribution', 'completetransaction', { id: contribution.id })).to.include({
      is_error: 0,
    });
    const renewed = await crm.api4(admin, 'Membership', 'get', {
      select: ['end_date'],
      where: [['id', '=', Number(membership.id)]],
    });
    expect(renewed.values[0].end_date).to.equal(addUnits(addUnits(now, 'year', 4), 'day', -1));
    // A line naming only its price option takes the option's field, label and amount.
    const bought = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Member Dues',
      total_amount: '200.00',
      line_items: [{ price_field_value_id: threeYears, qty: 2 }],
    });
    expect(bought, JSON.stringify(bought)).to.include({ is_error: 0 });
    const [line] = (
      await crm.api4(admin, 'LineItem', 'get', {
        select: ['price_field_id', 'label', 'unit_price', 'line_total', 'membership_num_terms'],
        where: [['contribution_id', '=', Number(bought.id)]],
      })
    ).values;
    expect(line).to.include({
      price_field_id: field.values[0].id,
      label: 'three_years',
      unit_price: 100,
      line_total: 200,
    });
    expect(line).to.include({ membership_num_terms: 3 });
    const unknown = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: ann,
      financial_type_id: 'Member Dues',
      total_amount: '100.00',
      line_items: [{ price_field_value_id: 987654 }],
    });
    expect(unknown.error_message).to.equal('line_items: 987654 is not a price option');
    // Not an id at all: refused the same way, before any query.
    for (const bad of ['abc', '1 or 1=1', -3, { id: 1 }]) {
      const refused = await crm.api3(admin, 'Contribution', 'create', {
        contact_id: ann,
        financial_type_id: 'Member Dues',
        total_amount: '100.00',
        line_items: [{ price_field_value_id: bad }],
      });
      expect(refused, JSON.stringify(refused)).to.include({ is_error: 1 });
      expect(refused.error_message).to.match(/^line_items: .* is not a price option$/);
    }
  });

  it('completetransaction renews an expired membership from the day paid, keeping its join date', async () => {
    const membership = await crm.api3(admin, 'Membership', 'create', {
      contact_id: ann,
      membership_type_id: typeId,
      join_date: '2020-01-01',
    });
    expect(await crm.api3(admin, 'Membership', 'getsingle', { id: membership.id })).to.include({
      end_date: '2020-12-31',
    });
    expect(await paidBy(membership.id)).to.include({
      join_date: '2020-01-01',
      start_date: now,
      end_date: addUnits(addUnits(now, 'year', 1), 'day', -1),
      'status_id:name': 'Current',
    } as Row);
  });

  it('deleting the contribution or the membership deletes the link', async () => {
    const membership = await pendingMembership();
    const contribution = await pendingContribution();
    await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: membership.id,
      contribution_id: contribution.id,
    });
    await crm.api3(admin, 'Contribution', 'delete', { id: contribution.id });
    expect((await crm.api3(admin, 'MembershipPayment', 'get', { membership_id: membership.id })).count).to.equal(0);
    const other = await pendingContribution();
    await crm.api3(admin, 'MembershipPayment', 'create', { membership_id: membership.id, contribution_id: other.id });
    await crm.api3(admin, 'Membership', 'delete', { id: membership.id });
    expect((await crm.api3(admin, 'MembershipPayment', 'get', { contribution_id: other.id })).count).to.equal(0);
  });

  it('row access: a member reads the payments of their own memberships only', async () => {
    const reader = await crm.userWith('payer', [
      'access CRM',
      'access memberships',
      'access contributions',
      'view my contact',
    ]);
    const own = await crm.api3(admin, 'Membership', 'create', {
      contact_id: reader.contactId,
      membership_type_id: typeId,
    });
    const contribution = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: reader.contactId,
      financial_type_id: 2,
      total_amount: 50,
    });
    const link = await crm.api3(admin, 'MembershipPayment', 'create', {
      membership_id: own.id,
      contribution_id: contribution.id,
    });
    const seen = await crm.api3(reader.headers, 'MembershipPayment', 'get', {});
    expect(seen, JSON.stringify(seen)).to.include({ is_error: 0 });
    expect(Object.keys(seen.values)).to.deep.equal([String(link.id)]);
  });
});
