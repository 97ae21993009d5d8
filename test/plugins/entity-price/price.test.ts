/** PriceSet, PriceField, PriceFieldValue and PriceSetEntity over HTTP, and the seeded default contribution-amount set. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers } from './http';

describe('entity-price: price sets over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
  });
  after(() => crm?.t.close());

  it('seeds the default contribution-amount set with its one field and value, reserved', async () => {
    const sets = await crm.api4(admin, 'PriceSet', 'get', {
      select: ['id', 'name', 'title', 'extends', 'is_quick_config', 'is_reserved'],
      where: [['name', '=', 'default_contribution_amount']],
    });
    expect(sets.values).to.have.length(1);
    expect(sets.values[0]).to.deep.include({ title: 'Contribution Amount', extends: ['2'], is_quick_config: true });
    const values = await crm.api4(admin, 'PriceFieldValue', 'get', {
      select: ['name', 'amount', 'price_field_id.name', 'price_field_id.html_type', 'financial_type_id:name'],
      where: [['price_field_id.price_set_id.name', '=', 'default_contribution_amount']],
    });
    expect(values.values).to.have.length(1);
    expect(values.values[0]).to.include({
      name: 'contribution_amount',
      amount: 1,
      'price_field_id.name': 'contribution_amount',
      'price_field_id.html_type': 'Text',
      'financial_type_id:name': 'Donation',
    });
    const refused = await crm.api3(admin, 'PriceSet', 'delete', { id: sets.values[0].id });
    expect(refused).to.include({ is_error: 1 });
    expect(String(refused.error_message)).to.match(/reserved/);
  });

  it('an event fee set: create, get with a filter and a join, update, delete, getfields (APIv3 and APIv4)', async () => {
    const set = await crm.api3(admin, 'PriceSet', 'create', {
      name: 'conference_fees',
      title: 'Conference fees',
      extends: 'CiviEvent',
      financial_type_id: 'Event Fee',
    });
    expect(set, JSON.stringify(set)).to.include({ is_error: 0 });
    const setRow = set.values[String(set.id)];
    expect(setRow).to.include({ is_active: '1', is_quick_config: '0' });
    const field = await crm.api4(admin, 'PriceField', 'create', {
      values: { price_set_id: set.id, name: 'ticket', label: 'Ticket', html_type: 'Radio' },
    });
    const fieldId = field.values[0].id;
    expect(field.values[0]).to.include({ weight: 1, is_required: true, visibility_id: 1 });
    for (const [label, amount] of [
      ['Member', '50.00'],
      ['Guest', '75.5'],
    ])
      expect(
        await crm.api3(admin, 'PriceFieldValue', 'create', { price_field_id: fieldId, label, name: label, amount }),
      ).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'PriceFieldValue', 'get', {
      price_field_id: fieldId,
      amount: { '>': 60 },
      return: ['label', 'amount', 'price_field_id.price_set_id.title'],
    });
    expect(got.count).to.equal(1);
    const guest = Object.values(got.values)[0];
    expect(guest).to.include({ label: 'Guest', 'price_field_id.price_set_id.title': 'Conference fees' });
    expect(Number(guest.amount)).to.equal(75.5);
    const changed = await crm.api4(admin, 'PriceFieldValue', 'update', {
      where: [['id', '=', guest.id]],
      values: { amount: '80.25', is_default: true },
    });
    expect(changed.values[0]).to.include({ amount: 80.25, is_default: true });
    const bad = await crm.api3(admin, 'PriceField', 'create', {
      price_set_id: set.id,
      name: 'x',
      label: 'X',
      html_type: 'Slider',
    });
    expect(bad).to.include({ is_error: 1 });
    const fields = await crm.api3(admin, 'PriceSet', 'getfields', { action: 'create' });
    expect(fields.values).to.include.keys('name', 'title', 'extends', 'financial_type_id', 'min_amount');
    const v4fields = await crm.api4(admin, 'PriceFieldValue', 'getFields', { select: ['name'] });
    expect(v4fields.values.map((row) => row.name)).to.include.members([
      'amount',
      'price_field_id',
      'membership_type_id',
    ]);
    // Deleting the set takes its fields and their values along.
    expect(await crm.api3(admin, 'PriceSet', 'delete', { id: set.id })).to.include({ is_error: 0 });
    const left = await crm.api4(admin, 'PriceFieldValue', 'get', { where: [['price_field_id', '=', fieldId]] });
    expect(left.values).to.have.length(0);
  });

  it('PriceSetEntity links a set to a contribution by entity_table/entity_id, checked', async () => {
    const [{ id: setId }] = (
      await crm.api4(admin, 'PriceSet', 'get', { where: [['name', '=', 'default_contribution_amount']] })
    ).values;
    const contact = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Ann' },
    });
    const contribution = await crm.api3(admin, 'Contribution', 'create', {
      contact_id: contact.values[0].id,
      financial_type_id: 'Donation',
      total_amount: 10,
    });
    const link = await crm.api3(admin, 'PriceSetEntity', 'create', {
      entity_table: 'civicrm_contribution',
      entity_id: contribution.id,
      price_set_id: setId,
    });
    expect(link, JSON.stringify(link)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'PriceSetEntity', 'get', {
      select: ['entity_id', 'price_set_id.name'],
      where: [['entity_table', '=', 'civicrm_contribution']],
    });
    expect(got.values[0]).to.include({
      entity_id: contribution.id,
      'price_set_id.name': 'default_contribution_amount',
    });
    const missing = await crm.api3(admin, 'PriceSetEntity', 'create', {
      entity_table: 'civicrm_contribution',
      entity_id: 999999,
      price_set_id: setId,
    });
    expect(missing).to.include({ is_error: 1 });
    expect(await crm.api3(admin, 'PriceSetEntity', 'delete', { id: link.id })).to.include({ is_error: 0 });
  });

  it('price sets are read with access CRM and changed only by administrators', async () => {
    const staff = (await crm.userWith('staff', ['access CRM'])).headers;
    const read = await crm.api4(staff, 'PriceSet', 'get', { select: ['name'] });
    expect(read.values.map((row) => row.name)).to.include('default_contribution_amount');
    const write = await crm.api3(staff, 'PriceSet', 'create', { name: 'nope', title: 'Nope', extends: 2 });
    expect(write).to.include({ is_error: 1 });
  });
});
