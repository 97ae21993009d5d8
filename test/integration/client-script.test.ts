/**
 * A typical client script of the reference system, over HTTP with an API key: create a contact with an email
 * and a phone, add it to a group, tag it, add a note, log an activity, relate it to an organisation — then
 * find it again by each of them, through APIv3 and APIv4. It crosses every core entity plugin.
 */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../support/entity-http';

describe('a client script across the core entities (issue 11)', function () {
  this.timeout(90000);
  let crm: EntityHttp;
  let key: Headers;
  const ids: Record<string, number> = {};

  before(async () => {
    crm = await bootEntityHttp({
      plugins: [
        'entity-group',
        'entity-tag',
        'entity-note',
        'entity-activity',
        'entity-relationship',
        'entity-geography',
      ],
    });
    key = (await crm.userWith('script', ['*'])).headers;
  });
  after(() => crm?.t.close());

  it('writes a contact and everything around it, each call answering is_error 0', async () => {
    const v3 = async (entity: string, action: string, params: Record<string, unknown>) => {
      const answer = await crm.api3(key, entity, action, params);
      expect(answer.is_error, `${entity}.${action}: ${JSON.stringify(answer)}`).to.equal(0);
      return answer;
    };
    const person = await v3('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.org',
      'api.Phone.create': { phone: '+1 555 0100', location_type_id: 'Work' },
      'api.Address.create': { location_type_id: 'Home', city: 'Arlington', country_id: 'US', state_province_id: 'VA' },
    });
    ids.person = Number(person.id);
    ids.org = Number((await v3('Contact', 'create', { contact_type: 'Organization', organization_name: 'Navy' })).id);
    ids.group = Number((await v3('Group', 'create', { title: 'Pioneers' })).id);
    const added = await v3('GroupContact', 'create', { group_id: ids.group, contact_id: ids.person });
    expect(added).to.include({ added: 1 });
    ids.tag = Number((await v3('Tag', 'create', { name: 'Admiral' })).id);
    await v3('EntityTag', 'create', { entity_id: ids.person, tag_id: ids.tag });
    await v3('Note', 'create', { entity_id: ids.person, subject: 'Bug', note: 'Found a moth in the relay.' });
    ids.activity = Number(
      (await v3('Activity', 'create', { activity_type_id: 'Meeting', subject: 'COBOL', target_contact_id: ids.person }))
        .id,
    );
    const employee = await v3('RelationshipType', 'getsingle', { name_a_b: 'Employee of' });
    await v3('Relationship', 'create', {
      contact_id_a: ids.person,
      contact_id_b: ids.org,
      relationship_type_id: employee.id,
    });
  });

  it('finds the contact by its email, group, tag, note, activity and relationship (APIv4 groups and tags too)', async () => {
    const contactIds = async (params: Record<string, unknown>) =>
      Object.keys((await crm.api3(key, 'Contact', 'get', { ...params, return: ['id'] })).values).map(Number);
    expect(await contactIds({ email: 'grace@example.org' })).to.deep.equal([ids.person]);
    expect(await contactIds({ group: ids.group })).to.deep.equal([ids.person]);
    expect(await contactIds({ tag: 'Admiral' })).to.deep.equal([ids.person]);
    const note = await crm.api3(key, 'Note', 'get', { entity_id: ids.person, sequential: 1 });
    expect(note.values.map((row) => row.subject)).to.deep.equal(['Bug']);
    const activities = await crm.api3(key, 'Activity', 'get', { contact_id: ids.person, sequential: 1 });
    expect(activities.values.map((row) => row.subject)).to.deep.equal(['COBOL']);
    const related = await crm.api3(key, 'Relationship', 'get', { contact_id: ids.org, sequential: 1 });
    expect(related.values.map((row) => Number(row.contact_id_a))).to.deep.equal([ids.person]);

    const v4 = await crm.api4(key, 'Contact', 'get', {
      select: ['display_name'],
      where: [
        ['id', 'IN', [ids.person, ids.org]],
        ['contact_type', '=', 'Individual'],
      ],
    });
    expect(v4.values).to.deep.equal([{ display_name: 'Grace Hopper' }]);
    const byGroupAndTag = await crm.api4(key, 'Contact', 'get', {
      select: ['display_name', 'groups', 'tags'],
      where: [
        ['groups', 'IN', [ids.group]],
        ['tags:name', '=', 'Admiral'],
      ],
    });
    expect(byGroupAndTag.values).to.deep.equal([
      { display_name: 'Grace Hopper', groups: [ids.group], tags: [ids.tag] },
    ]);
    const notInGroup = await crm.api4(key, 'Contact', 'get', {
      select: ['id'],
      where: [['groups', 'NOT IN', [ids.group]]],
    });
    expect(notInGroup.values.map((row) => row.id))
      .to.include(ids.org)
      .and.not.include(ids.person);
    const star = await crm.api4(key, 'Contact', 'get', { where: [['id', '=', ids.person]] });
    expect(star.values[0], 'collections are read when named, not with *').to.not.have.any.keys('groups', 'tags');
    const address = await crm.api4(key, 'Address', 'get', {
      select: ['city', 'country_id:abbr', 'state_province_id:abbr'],
      where: [['contact_id', '=', ids.person]],
    });
    expect(address.values).to.deep.equal([
      { city: 'Arlington', 'country_id:abbr': 'US', 'state_province_id:abbr': 'VA' },
    ]);
    const targets = await crm.api4(key, 'Activity', 'get', {
      select: ['subject', 'activity_type_id:name'],
      where: [['target_contact_id', '=', ids.person]],
    });
    expect(targets.values).to.deep.equal([{ subject: 'COBOL', 'activity_type_id:name': 'Meeting' }]);
  });

  it('deleting the contact for good takes its notes, tags, activity parts and relationships with it', async () => {
    expect((await crm.api3(key, 'Contact', 'delete', { id: ids.person, skip_undelete: 1 })).is_error).to.equal(0);
    for (const [entity, params] of [
      ['Note', { entity_id: ids.person }],
      ['EntityTag', { entity_id: ids.person }],
      ['ActivityContact', { contact_id: ids.person }],
      ['Relationship', { contact_id_a: ids.person }],
      ['GroupContact', { contact_id: ids.person, status: { IN: ['Added', 'Removed', 'Pending'] } }],
    ] as const)
      expect(Number((await crm.api3(key, entity, 'getcount', params)).result), entity).to.equal(0);
  });
});
