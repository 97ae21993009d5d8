/** CaseType (4.5 definitions as structures), CaseContact and CaseActivity over HTTP, in both APIs. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers, type Row } from './http';

const DEFINITION = {
  activityTypes: [{ name: 'Open Case', max_instances: '1' }, { name: 'Follow up' }],
  activitySets: [
    {
      name: 'standard_timeline',
      label: 'Standard Timeline',
      timeline: '1',
      activityTypes: [
        { name: 'Open Case', status: 'Completed' },
        { name: 'Follow up', reference_activity: 'Open Case', reference_offset: '5', reference_select: 'newest' },
      ],
    },
  ],
  caseRoles: [{ name: 'Benefits Specialist', creator: '1', manager: '1' }],
  statuses: ['Open', 'Closed'],
};

describe('entity-case: CaseType, CaseContact and CaseActivity over HTTP', function () {
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

  it('4.5 seeds the sample case types with their definitions', async () => {
    const types = await crm.api4(admin, 'CaseType', 'get', {
      select: ['name', 'title', 'definition'],
      orderBy: { id: 'ASC' },
    });
    expect(types.values.map((type: Row) => type.name)).to.deep.equal(['housing_support', 'adult_day_care_referral']);
    const housing = types.values[0].definition as { caseRoles: Row[]; activitySets: Row[] };
    expect(housing.caseRoles[0]).to.deep.equal({ name: 'Homeless Services Coordinator', creator: '1', manager: '1' });
    expect(housing.activitySets[0]).to.include({ name: 'standard_timeline' });
    const statuses = await crm.api4(admin, 'OptionValue', 'get', {
      select: ['name', 'label', 'grouping'],
      where: [['option_group_id:name', '=', 'case_status']],
      orderBy: { value: 'ASC' },
    });
    expect(statuses.values.map((status: Row) => [status.name, status.label, status.grouping])).to.deep.equal([
      ['Open', 'Ongoing', 'Opened'],
      ['Closed', 'Resolved', 'Closed'],
      ['Urgent', 'Urgent', 'Opened'],
    ]);
  });

  it('4.5 APIv3: a definition given as a structure is stored as JSON and returned as the same structure', async () => {
    const made = await crm.api3(admin, 'CaseType', 'create', {
      name: 'benefits',
      title: 'Benefits',
      definition: DEFINITION,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'CaseType', 'get', { name: 'benefits', sequential: 1 });
    expect(got.values[0].definition).to.deep.equal(DEFINITION);
    const v4 = await crm.api4(admin, 'CaseType', 'get', { select: ['definition'], where: [['name', '=', 'benefits']] });
    expect(v4.values[0].definition).to.deep.equal(DEFINITION);
    const updated = await crm.api4(admin, 'CaseType', 'update', {
      where: [['id', '=', made.id]],
      values: { title: 'Benefits help', definition: { ...DEFINITION, statuses: ['Open'] } },
    });
    expect(updated, JSON.stringify(updated)).to.have.property('count', 1);
    const after = await crm.api3(admin, 'CaseType', 'getsingle', { id: made.id });
    expect(after).to.deep.include({ title: 'Benefits help' });
    expect((after.definition as Row).statuses).to.deep.equal(['Open']);
  });

  it('4.5 a malformed definition is refused with a clear error in both APIs', async () => {
    const v3 = await crm.api3(admin, 'CaseType', 'create', {
      name: 'bad',
      title: 'Bad',
      definition: { activityTypes: [{ label: 'no name' }], caseRoles: 'x' },
    });
    expect(v3).to.include({ is_error: 1 });
    expect(String(v3.error_message)).to.match(/^Invalid case type definition: /);
    expect(String(v3.error_message)).to.match(/definition\.activityTypes\.0 must have required property 'name'/);
    expect(String(v3.error_message)).to.match(/definition\.caseRoles must be array/);
    const v4 = await crm.api4(admin, 'CaseType', 'create', {
      values: { name: 'bad', title: 'Bad', definition: { colour: 'red' } },
    });
    expect(JSON.stringify(v4)).to.match(/Invalid case type definition: definition must NOT have additional properties/);
    const text = await crm.api3(admin, 'CaseType', 'create', { name: 'bad', title: 'Bad', definition: '{not json' });
    expect(String(text.error_message)).to.match(/definition is not valid JSON/);
    expect((await crm.api4(admin, 'CaseType', 'get', { where: [['name', '=', 'bad']] })).values).to.have.length(0);
  });

  it("a case of a type defined through the API gets that definition's timeline and roles", async () => {
    const made = await crm.api4(admin, 'Case', 'create', {
      values: { 'case_type_id:name': 'benefits', contact_id: [ann], subject: 'Benefits', start_date: '2026-03-01' },
    });
    expect(made, JSON.stringify(made)).to.have.property('count', 1);
    const caseId = made.values[0].id;
    const links = await crm.api4(admin, 'CaseActivity', 'get', {
      select: ['activity_id.activity_type_id:name', 'activity_id.activity_date_time'],
      where: [['case_id', '=', caseId]],
      orderBy: { id: 'ASC' },
    });
    expect(links.values.map((link: Row) => link['activity_id.activity_type_id:name'])).to.deep.equal([
      'Open Case',
      'Follow up',
    ]);
    expect(String(links.values[1]['activity_id.activity_date_time'])).to.match(/^2026-03-06/);
    const roles = await crm.api4(admin, 'Relationship', 'get', {
      select: ['relationship_type_id.name_b_a'],
      where: [['case_id', '=', caseId]],
    });
    expect(roles.values).to.deep.equal([{ 'relationship_type_id.name_b_a': 'Benefits Specialist' }]);
  });

  it('CaseType delete; getfields in both APIs', async () => {
    const made = await crm.api4(admin, 'CaseType', 'create', { values: { name: 'temp', title: 'Temp' } });
    const gone = await crm.api3(admin, 'CaseType', 'delete', { id: made.values[0].id });
    expect(gone, JSON.stringify(gone)).to.include({ is_error: 0 });
    const v3 = await crm.api3(admin, 'CaseType', 'getfields', {});
    expect(v3.values).to.include.keys('name', 'title', 'definition', 'weight');
    const v4 = await crm.api4(admin, 'CaseActivity', 'getFields', { select: ['name'] });
    expect(v4.values.map((field: Row) => field.name)).to.deep.equal(['id', 'case_id', 'activity_id']);
  });

  it('CaseContact: create, get with a filter and a join, update, delete', async () => {
    const bob = Number(
      (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Bob' } }))
        .values[0].id,
    );
    const made = await crm.api3(admin, 'Case', 'create', {
      case_type: 'housing_support',
      contact_id: ann,
      subject: 'Pair',
    });
    const link = await crm.api3(admin, 'CaseContact', 'create', { case_id: made.id, contact_id: bob });
    expect(link, JSON.stringify(link)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'CaseContact', 'get', {
      select: ['contact_id.first_name', 'case_id.subject'],
      where: [['case_id', '=', made.id]],
      orderBy: { id: 'ASC' },
    });
    expect(got.values.map((row: Row) => row['contact_id.first_name'])).to.deep.equal(['Ann', 'Bob']);
    expect(got.values[0]['case_id.subject']).to.equal('Pair');
    const carol = Number(
      (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Carol' } }))
        .values[0].id,
    );
    const moved = await crm.api4(admin, 'CaseContact', 'update', {
      where: [['id', '=', link.id]],
      values: { contact_id: carol },
    });
    expect(moved, JSON.stringify(moved)).to.have.property('count', 1);
    const v3 = await crm.api3(admin, 'Case', 'get', { id: made.id, return: ['contact_id'] });
    expect(v3.values[String(made.id)].contact_id).to.deep.equal([String(ann), String(carol)]);
    const dropped = await crm.api3(admin, 'CaseContact', 'delete', { id: link.id });
    expect(dropped, JSON.stringify(dropped)).to.include({ is_error: 0 });
    const links = await crm.api4(admin, 'CaseActivity', 'get', { where: [['case_id', '=', made.id]], select: ['id'] });
    const unlinked = await crm.api3(admin, 'CaseActivity', 'delete', { id: links.values[0].id });
    expect(unlinked, JSON.stringify(unlinked)).to.include({ is_error: 0 });
  });
});
