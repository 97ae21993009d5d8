/** Custom groups with several records per entity, CustomValue (APIv3), contact types and other extended entities. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('custom-data: multi-record groups, CustomValue and other entities', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let visitId: number;
  let placeId: number;
  let noteFieldId: number;
  let ann: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['custom-data', 'entity-activity', 'entity-tag'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    ann = Number(
      (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Ann' } }))
        .values[0].id,
    );
    const group = await crm.api4(admin, 'CustomGroup', 'create', {
      values: { title: 'Visits', extends: 'Contact', is_multiple: true },
    });
    const groupId = group.values[0].id;
    const field = async (label: string, dataType: string) =>
      Number(
        (
          await crm.api4(admin, 'CustomField', 'create', {
            values: { custom_group_id: groupId, label, data_type: dataType, html_type: 'Text' },
          })
        ).values[0].id,
      );
    visitId = await field('Visit date', 'Date');
    placeId = await field('Place', 'String');
  });
  after(() => crm?.t.close());

  it('APIv3 Contact.create with custom_<id>_-1 and _-2 makes two records; CustomValue.get lists them by record', async () => {
    const updated = await crm.api3(admin, 'Contact', 'create', {
      id: ann,
      [`custom_${placeId}_-1`]: 'Paris',
      [`custom_${visitId}_-1`]: '2024-05-01',
      [`custom_${placeId}_-2`]: 'Rome',
    });
    expect(updated, JSON.stringify(updated)).to.include({ is_error: 0 });
    const got = await crm.api3(admin, 'CustomValue', 'get', { entity_id: ann });
    expect(got, JSON.stringify(got)).to.include({ is_error: 0, count: 2 });
    const place = got.values[String(placeId)];
    const records = Object.keys(place).filter((key) => /^\d+$/.test(key));
    expect(records).to.have.length(2);
    expect(records.map((key) => place[key])).to.deep.equal(['Paris', 'Rome']);
    expect(place).to.include({ entity_id: String(ann), latest: 'Rome', id: String(placeId) });
  });

  it('CustomValue.create updates one record by id (custom_<id>:<record>) and adds one by name (custom_<group>:<field>:-1)', async () => {
    const before = await crm.api4(admin, 'Custom_Visits', 'get', {
      where: [['entity_id', '=', ann]],
      orderBy: { id: 'ASC' },
    });
    const first = before.values[0].id;
    const set = await crm.api3(admin, 'CustomValue', 'create', {
      entity_id: ann,
      [`custom_${placeId}:${first}`]: 'Lyon',
      'custom_Visits:Place:-1': 'Oslo',
    });
    expect(set, JSON.stringify(set)).to.include({ is_error: 0, values: true });
    const after = await crm.api4(admin, 'Custom_Visits', 'get', {
      select: ['Place'],
      where: [['entity_id', '=', ann]],
      orderBy: { id: 'ASC' },
    });
    expect(after.values.map((row: Record<string, unknown>) => row.Place)).to.deep.equal(['Lyon', 'Rome', 'Oslo']);
  });

  it('APIv4 Custom_<group>: create, get with a join to the contact, update, delete', async () => {
    const made = await crm.api4(admin, 'Custom_Visits', 'create', { values: { entity_id: ann, Place: 'Bern' } });
    expect(made, JSON.stringify(made)).to.not.have.property('error_message');
    const id = made.values[0].id;
    const got = await crm.api4(admin, 'Custom_Visits', 'get', {
      select: ['Place', 'entity_id.first_name'],
      where: [['id', '=', id]],
    });
    expect(got.values).to.deep.equal([{ Place: 'Bern', 'entity_id.first_name': 'Ann' }]);
    await crm.api4(admin, 'Custom_Visits', 'update', { where: [['id', '=', id]], values: { Place: 'Basel' } });
    const deleted = await crm.api4(admin, 'Custom_Visits', 'delete', { where: [['Place', '=', 'Basel']] });
    expect(deleted.values).to.deep.equal([{ id }]);
  });

  it('a group for Individuals refuses values on an Organization', async () => {
    const group = await crm.api3(admin, 'CustomGroup', 'create', { title: 'Personal', extends: 'Individual' });
    const field = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: group.id,
      label: 'Nickname',
      data_type: 'String',
      html_type: 'Text',
    });
    const refused = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Organization',
      organization_name: 'Acme',
      [`custom_${field.id}`]: 'Ace',
    });
    expect(refused).to.include({ is_error: 1 });
    expect(String(refused.error_message)).to.match(/Individual contacts cannot be set on a Organization/);
  });

  it('custom data on activities: APIv3 custom_<id> on Activity.create and APIv4 <group>.<field> on Activity.get', async () => {
    const group = await crm.api3(admin, 'CustomGroup', 'create', { title: 'Call details', extends: 'Activity' });
    const field = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: group.id,
      label: 'Minutes',
      data_type: 'Int',
      html_type: 'Text',
    });
    noteFieldId = Number(field.id);
    const activity = await crm.api3(admin, 'Activity', 'create', {
      activity_type_id: 'Phone Call',
      source_contact_id: ann,
      subject: 'Call',
      [`custom_${noteFieldId}`]: 12,
    });
    expect(activity, JSON.stringify(activity)).to.include({ is_error: 0 });
    const got = await crm.api4(admin, 'Activity', 'get', {
      select: ['subject', 'Call_details.Minutes'],
      where: [['Call_details.Minutes', '>', 10]],
    });
    expect(got.values).to.deep.equal([{ subject: 'Call', 'Call_details.Minutes': 12 }]);
    const wrong = await crm.api3(admin, 'Contact', 'create', { id: ann, [`custom_${noteFieldId}`]: 3 });
    expect(String(wrong.error_message)).to.match(/Unknown custom field/);
  });

  it('custom values follow the record they extend: a caller who cannot see the activity sees none of its values', async () => {
    const limited = (await crm.userWith('limited', ['access CRM'])).headers;
    const hidden = await crm.api4(limited, 'Custom_Call_details', 'get', { select: ['Minutes'] });
    expect(hidden, JSON.stringify(hidden)).to.not.have.property('error_message');
    expect(hidden.values).to.deep.equal([]);
    const all = await crm.api4(admin, 'Custom_Call_details', 'get', { select: ['Minutes'] });
    expect(all.values).to.deep.equal([{ Minutes: 12 }]);
    const visits = await crm.api4(limited, 'Custom_Visits', 'get', { select: ['Place'] });
    expect(visits.values).to.deep.equal([]);
  });

  it('5.0: custom data on almost any entity (a Tag); the excluded entities (EntityTag, CustomField…) are refused', async () => {
    const group = await crm.api3(admin, 'CustomGroup', 'create', { title: 'Tag extras', extends: 'Tag' });
    expect(group, JSON.stringify(group)).to.include({ is_error: 0 });
    await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: group.id,
      label: 'Colour code',
      data_type: 'String',
      html_type: 'Text',
    });
    const tag = await crm.api4(admin, 'Tag', 'create', { values: { name: 'vip', 'Tag_extras.Colour_code': '#f00' } });
    expect(tag, JSON.stringify(tag)).to.not.have.property('error_message');
    const got = await crm.api4(admin, 'Tag', 'get', {
      select: ['name', 'Tag_extras.Colour_code'],
      where: [['name', '=', 'vip']],
    });
    expect(got.values).to.deep.equal([{ name: 'vip', 'Tag_extras.Colour_code': '#f00' }]);
    for (const excluded of ['EntityTag', 'CustomField', 'GroupContact', 'Nonsense']) {
      const refused = await crm.api3(admin, 'CustomGroup', 'create', { title: `On ${excluded}`, extends: excluded });
      expect(refused, excluded).to.include({ is_error: 1 });
      expect(String(refused.error_message)).to.match(/cannot extend/);
    }
  });

  it('a group for some activity types (extends_entity_column_value) refuses values on other types', async () => {
    const types = await crm.api4(admin, 'OptionValue', 'get', {
      select: ['value', 'name'],
      where: [
        ['option_group_id:name', '=', 'activity_type'],
        ['name', 'IN', ['Meeting', 'Phone Call']],
      ],
    });
    const meeting = types.values.find((row: Record<string, unknown>) => row.name === 'Meeting')!.value;
    const group = await crm.api3(admin, 'CustomGroup', 'create', {
      title: 'Meeting room',
      extends: 'Activity',
      extends_entity_column_value: [meeting],
    });
    const field = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: group.id,
      label: 'Room',
      data_type: 'String',
      html_type: 'Text',
    });
    const call = await crm.api3(admin, 'Activity', 'create', {
      activity_type_id: 'Phone Call',
      source_contact_id: ann,
      [`custom_${field.id}`]: 'B12',
    });
    expect(call).to.include({ is_error: 1 });
    expect(String(call.error_message)).to.match(/Meeting room applies only to records whose activity_type_id/);
    const met = await crm.api3(admin, 'Activity', 'create', {
      activity_type_id: 'Meeting',
      source_contact_id: ann,
      [`custom_${field.id}`]: 'B12',
    });
    expect(met, JSON.stringify(met)).to.include({ is_error: 0 });
  });
});
