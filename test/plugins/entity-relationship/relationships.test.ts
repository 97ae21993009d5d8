/** Relationship and RelationshipType over HTTP: seeded types, checks, 4.7.0 delete permission, permissioned access. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-relationship: Relationship and RelationshipType over HTTP', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let ann: number;
  let bob: number;
  let acme: number;
  let employee: number;

  const contact = async (values: Record<string, unknown>) =>
    Number((await crm.api4(admin, 'Contact', 'create', { values })).values[0].id);

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-relationship'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    ann = await contact({ contact_type: 'Individual', first_name: 'Ann', last_name: 'Archer' });
    bob = await contact({ contact_type: 'Individual', first_name: 'Bob', last_name: 'Baker' });
    acme = await contact({ contact_type: 'Organization', organization_name: 'Acme' });
    employee = Number((await crm.api3(admin, 'RelationshipType', 'getsingle', { name_a_b: 'Employee of' })).id);
  });
  after(() => crm?.t.close());

  it('seeds the reference relationship types, named from each side', async () => {
    const types = await crm.api4(admin, 'RelationshipType', 'get', {
      select: ['id', 'name_a_b', 'name_b_a', 'contact_type_b'],
    });
    expect(types.values).to.deep.include({
      id: employee,
      name_a_b: 'Employee of',
      name_b_a: 'Employer of',
      contact_type_b: 'Organization',
    });
    expect(types.values.map((row) => row.name_a_b)).to.include.members([
      'Child of',
      'Spouse of',
      'Sibling of',
      'Volunteer for',
    ]);
  });

  it('APIv3 create and get (contact_id on either side); APIv4 joins the contacts and the type', async () => {
    const made = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: ann,
      contact_id_b: acme,
      relationship_type_id: employee,
      start_date: '2024-01-01',
    });
    expect(made.is_error, JSON.stringify(made)).to.equal(0);
    expect(made.values[made.id as string]).to.include({ is_active: '1', is_permission_a_b: '0' });
    expect((await crm.api3(admin, 'Relationship', 'get', { contact_id: acme })).count).to.equal(1);
    expect((await crm.api3(admin, 'Relationship', 'get', { contact_id: bob })).count).to.equal(0);
    const v4 = await crm.api4(admin, 'Relationship', 'get', {
      select: [
        'contact_id_a.display_name',
        'contact_id_b.organization_name',
        'relationship_type_id:name',
        'start_date',
      ],
      where: [['contact_id_b.organization_name', '=', 'Acme']],
    });
    expect(v4.values).to.deep.equal([
      {
        'contact_id_a.display_name': 'Ann Archer',
        'contact_id_b.organization_name': 'Acme',
        'relationship_type_id:name': 'Employee of',
        start_date: '2024-01-01',
      },
    ]);
  });

  it('the legacy relationship_type name; contact types must match the type; never a contact with itself', async () => {
    const byName = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: bob,
      contact_id_b: acme,
      relationship_type: 'volunteer for',
    });
    expect(byName.is_error, JSON.stringify(byName)).to.equal(0);
    const wrongType = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: acme,
      contact_id_b: ann,
      relationship_type_id: employee,
    });
    expect(wrongType).to.include({ is_error: 1, error_message: 'Invalid Relationship' });
    const spouse = Number((await crm.api3(admin, 'RelationshipType', 'getsingle', { name_a_b: 'Spouse of' })).id);
    const self = await crm.api4(admin, 'Relationship', 'create', {
      values: { contact_id_a: ann, contact_id_b: ann, relationship_type_id: spouse },
    });
    expect(self).to.include({ error_message: 'Invalid Relationship' });
  });

  it('refuses a duplicate of the same type between the same contacts over overlapping dates, either way round', async () => {
    const sibling = Number((await crm.api3(admin, 'RelationshipType', 'getsingle', { name_a_b: 'Sibling of' })).id);
    const first = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: ann,
      contact_id_b: bob,
      relationship_type_id: sibling,
    });
    expect(first.is_error).to.equal(0);
    const again = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: bob,
      contact_id_b: ann,
      relationship_type_id: sibling,
    });
    expect(again).to.include({ is_error: 1, error_message: 'Duplicate Relationship' });
    const past = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: ann,
      contact_id_b: acme,
      relationship_type_id: employee,
      start_date: '2010-01-01',
      end_date: '2012-12-31',
    });
    expect(past.is_error, 'an earlier job, over other dates, is another relationship').to.equal(0);
  });

  it('filter.is_current (and the filters object): in force today and active; one ending today still counts', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
    const made: Record<string, number> = {};
    for (const [name, values] of Object.entries({
      open: {},
      endsToday: { end_date: day(0) },
      startsToday: { start_date: day(0) },
      ended: { end_date: day(-1) },
      future: { start_date: day(1) },
      inactive: { is_active: 0 },
    })) {
      const person = await contact({ contact_type: 'Individual', first_name: name, last_name: 'Current' });
      const rel = await crm.api3(admin, 'Relationship', 'create', {
        contact_id_a: person,
        contact_id_b: acme,
        relationship_type_id: employee,
        ...values,
      });
      expect(rel, JSON.stringify(rel)).to.include({ is_error: 0 });
      made[name] = Number(rel.id);
    }
    const ids = Object.values(made);
    const current = async (params: Record<string, unknown>) => {
      const got = await crm.api3(admin, 'Relationship', 'get', { id: { IN: ids }, sequential: 1, ...params });
      expect(got, JSON.stringify(got)).to.include({ is_error: 0 });
      return got.values.map((row: Record<string, unknown>) => Number(row.id)).sort((a: number, b: number) => a - b);
    };
    const expected = [made.open, made.endsToday, made.startsToday].sort((a, b) => a - b);
    expect(await current({ 'filter.is_current': 1 })).to.deep.equal(expected);
    expect(await current({ filters: { is_current: 1 } })).to.deep.equal(expected);
    expect(await current({ 'filter.is_current': 0 })).to.have.length(ids.length);
    // The `filters` object carries the date ranges too (it was ignored before: a filter dropped in silence).
    expect(await current({ filters: { start_date_high: day(0) } })).to.deep.equal([made.startsToday]);
    const refused = await crm.api3(admin, 'Contact', 'get', { 'filter.is_current': 1 });
    expect(refused).to.include({ is_error: 1 });
    expect(refused.error_message).to.match(/filter.is_current needs start_date or end_date/);
  });

  it('4.7.0: deleting a relationship needs edit all contacts; getfields lists the fields', async () => {
    const { headers: viewer } = await crm.userWith('viewer', ['access CRM', 'view all contacts']);
    const [row] = (await crm.api4(admin, 'Relationship', 'get', { where: [['contact_id_a', '=', bob]] })).values;
    const refused = await crm.api3(viewer, 'Relationship', 'delete', { id: row.id });
    expect(refused.is_error).to.equal(1);
    expect((await crm.api3(viewer, 'Relationship', 'get', { contact_id: bob })).count).to.be.greaterThan(0);
    const { headers: editor } = await crm.userWith('editor', ['access CRM', 'view all contacts', 'edit all contacts']);
    expect((await crm.api3(editor, 'Relationship', 'delete', { id: row.id })).is_error).to.equal(0);
    const fields = await crm.api3(admin, 'Relationship', 'getfields', { action: 'create' });
    expect(fields.values.contact_id_a).to.include({ 'api.required': 1 });
    expect(fields.values.is_permission_a_b.options ?? fields.values.is_permission_a_b).to.exist;
  });

  it('a permissioned relationship lets contact A see (1) or edit (2) contact B while it is in force', async () => {
    const dee = await contact({ contact_type: 'Individual', first_name: 'Dee', last_name: 'Dunn' });
    const { headers: carer, contactId: carerId } = await crm.userWith('carer', ['access CRM', 'view my contact']);
    const seen = async () => (await crm.api3(carer, 'Contact', 'get', { id: dee })).count;
    expect(await seen()).to.equal(0);
    const child = Number((await crm.api3(admin, 'RelationshipType', 'getsingle', { name_a_b: 'Child of' })).id);
    const rel = await crm.api3(admin, 'Relationship', 'create', {
      contact_id_a: dee,
      contact_id_b: carerId,
      relationship_type_id: child,
      is_permission_b_a: 1,
    });
    expect(rel.is_error, JSON.stringify(rel)).to.equal(0);
    expect(await seen()).to.equal(1);
    const email = await crm.api3(admin, 'Email', 'create', { contact_id: dee, email: 'dee@example.org' });
    expect((await crm.api3(carer, 'Email', 'get', { id: email.id })).count).to.equal(1);
    const edit = await crm.api3(carer, 'Contact', 'create', { id: dee, nick_name: 'D' });
    expect(edit.is_error, 'view only: no update').to.equal(1);
    await crm.api3(admin, 'Relationship', 'create', { id: rel.id, is_permission_b_a: 2 });
    expect((await crm.api3(carer, 'Contact', 'create', { id: dee, nick_name: 'D' })).is_error).to.equal(0);
    await crm.api3(admin, 'Relationship', 'create', { id: rel.id, is_active: 0 });
    expect(await seen(), 'an inactive relationship grants nothing').to.equal(0);
  });
});
