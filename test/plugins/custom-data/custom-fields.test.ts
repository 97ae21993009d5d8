/** Custom data over HTTP: groups and fields made while the service runs, used at once through both APIs. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('custom-data: custom groups and fields over HTTP', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let groupId: number;
  let colourId: number;
  let sizeId: number;
  let hobbiesId: number;
  let since: number;
  let ann: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['custom-data', 'entity-activity'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    ann = Number(
      (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Ann' } }))
        .values[0].id,
    );
  });
  after(() => crm?.t.close());

  it('APIv3 CustomGroup.create names the group and its table from the title', async () => {
    const made = await crm.api3(admin, 'CustomGroup', 'create', { title: 'More About', extends: 'Individual' });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    groupId = Number(made.id);
    expect(made.values[String(groupId)]).to.include({
      name: 'More_About',
      table_name: `crm_value_more_about_${groupId}`,
      extends: 'Individual',
    });
  });

  it('APIv3 CustomField.create adds a column; options through option_values; multi-select (5.0 serialize)', async () => {
    const colour = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      label: 'Favourite colour',
      data_type: 'String',
      html_type: 'Text',
      is_searchable: 1,
    });
    expect(colour, JSON.stringify(colour)).to.include({ is_error: 0 });
    colourId = Number(colour.id);
    expect(colour.values[String(colourId)]).to.include({
      name: 'Favourite_colour',
      column_name: `favourite_colour_${colourId}`,
    });
    const size = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      label: 'Size',
      data_type: 'String',
      html_type: 'Select',
      option_values: { S: 'Small', M: 'Medium', L: 'Large' },
    });
    expect(size, JSON.stringify(size)).to.include({ is_error: 0 });
    sizeId = Number(size.id);
    const hobbies = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      label: 'Hobbies',
      data_type: 'String',
      html_type: 'CheckBox',
      option_values: [
        { value: 'read', label: 'Reading' },
        { value: 'swim', label: 'Swimming' },
        { value: 'run', label: 'Running' },
      ],
    });
    expect(hobbies, JSON.stringify(hobbies)).to.include({ is_error: 0 });
    hobbiesId = Number(hobbies.id);
    expect(hobbies.values[String(hobbiesId)]).to.include({ serialize: '1' });
    const date = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      label: 'Member since',
      data_type: 'Date',
      html_type: 'Select Date',
    });
    since = Number(date.id);
  });

  it('APIv3 Contact.create and get with custom_<id>, filter and sort (4.7.0 custom-field search; 4.6.7 lists)', async () => {
    const made = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Bob',
      [`custom_${colourId}`]: 'Green',
      [`custom_${sizeId}`]: 'Medium',
      [`custom_${hobbiesId}`]: ['read', 'Swimming'],
      [`custom_${since}`]: '20200131',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const bob = Number(made.id);
    await crm.api3(admin, 'Contact', 'create', { id: ann, [`custom_${colourId}`]: 'Blue' });
    const got = await crm.api3(admin, 'Contact', 'get', {
      [`custom_${colourId}`]: 'Green',
      return: ['display_name', `custom_${colourId}`, `custom_${sizeId}`, `custom_${hobbiesId}`, `custom_${since}`],
    });
    expect(got.count, JSON.stringify(got)).to.equal(1);
    expect(got.values[String(bob)]).to.deep.include({
      [`custom_${colourId}`]: 'Green',
      [`custom_${sizeId}`]: 'M',
      [`custom_${since}`]: '2020-01-31 00:00:00',
    });
    expect(got.values[String(bob)][`custom_${hobbiesId}`]).to.deep.equal(['read', 'swim']);
    const sorted = await crm.api3(admin, 'Contact', 'get', {
      [`custom_${colourId}`]: { 'IS NOT NULL': 1 },
      sequential: 1,
      options: { sort: `custom_${colourId} DESC` },
      return: ['display_name'],
    });
    expect(sorted.values, JSON.stringify(sorted)).to.be.an('array');
    expect(sorted.values.map((row: Record<string, unknown>) => row.display_name)).to.deep.equal(['Bob', 'Ann']);
  });

  it('5.12: the string NULL is stored as text; lowercase null clears the value', async () => {
    await crm.api3(admin, 'Contact', 'create', { id: ann, [`custom_${colourId}`]: 'NULL' });
    let got = await crm.api3(admin, 'Contact', 'getsingle', { id: ann, return: [`custom_${colourId}`] });
    expect(got[`custom_${colourId}`]).to.equal('NULL');
    await crm.api3(admin, 'Contact', 'create', { id: ann, [`custom_${colourId}`]: 'null' });
    got = await crm.api3(admin, 'Contact', 'getsingle', { id: ann, return: [`custom_${colourId}`] });
    expect(got[`custom_${colourId}`] ?? '').to.equal('');
  });

  it('APIv4 reads, filters and writes <group>.<field>, with :label', async () => {
    const made = await crm.api4(admin, 'Contact', 'create', {
      values: {
        contact_type: 'Individual',
        first_name: 'Cy',
        'More_About.Favourite_colour': 'Red',
        'More_About.Size:label': 'Large',
      },
    });
    expect(made, JSON.stringify(made)).to.not.have.property('error_message');
    const got = await crm.api4(admin, 'Contact', 'get', {
      select: ['first_name', 'More_About.Favourite_colour', 'More_About.Size:label', 'More_About.Hobbies'],
      where: [['More_About.Favourite_colour', 'IN', ['Red', 'Green']]],
      orderBy: { 'More_About.Favourite_colour': 'ASC' },
    });
    expect(got.values, JSON.stringify(got)).to.deep.equal([
      {
        first_name: 'Bob',
        'More_About.Favourite_colour': 'Green',
        'More_About.Size:label': 'Medium',
        'More_About.Hobbies': ['read', 'swim'],
      },
      {
        first_name: 'Cy',
        'More_About.Favourite_colour': 'Red',
        'More_About.Size:label': 'Large',
        'More_About.Hobbies': null,
      },
    ]);
  });

  it('getfields (APIv3) lists custom_<id>; getFields (APIv4) lists <group>.<field> with its options', async () => {
    const v3 = await crm.api3(admin, 'Contact', 'getfields', { action: 'create' });
    expect(v3.values[`custom_${colourId}`]).to.include({
      name: `custom_${colourId}`,
      title: 'Favourite colour',
      custom_group_id: String(groupId),
      data_type: 'String',
      html_type: 'Text',
      is_core_field: false,
    });
    const v4 = await crm.api4(admin, 'Contact', 'getFields', {
      where: [['name', 'LIKE', 'More_About.%']],
      loadOptions: true,
      select: ['name', 'type', 'data_type', 'options', 'serialize'],
    });
    expect(v4.values).to.deep.include({
      name: 'More_About.Size',
      type: 'Custom',
      data_type: 'String',
      options: { S: 'Small', M: 'Medium', L: 'Large' },
      serialize: null,
    });
    expect(v4.values.find((row: Record<string, unknown>) => row.name === 'More_About.Hobbies')).to.include({
      serialize: 1,
    });
    expect(v4.values.map((row: Record<string, unknown>) => row.name)).to.not.include('More_About');
  });

  it('bad values get clear errors and nothing is written', async () => {
    const before = await crm.api3(admin, 'Contact', 'getcount', {});
    const badDate = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Dee',
      [`custom_${since}`]: '2020-02-30',
    });
    expect(badDate).to.include({ is_error: 1 });
    expect(String(badDate.error_message)).to.match(/not a valid date/);
    const badOption = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Dee',
      [`custom_${sizeId}`]: 'XXL',
    });
    expect(String(badOption.error_message)).to.match(/not a valid option/);
    const unknown = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Dee',
      custom_99999: 'x',
    });
    expect(String(unknown.error_message)).to.match(/Unknown custom field custom_99999/);
    expect(await crm.api3(admin, 'Contact', 'getcount', {})).to.deep.equal(before);
  });

  it('names with SQL in them are refused; labels are munged into safe names', async () => {
    const bad = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      name: 'x"; drop table crm_contact; --',
      label: 'Evil',
      data_type: 'String',
      html_type: 'Text',
    });
    expect(bad).to.include({ is_error: 1 });
    const lost = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      label: 'Plain',
      data_type: 'String',
      html_type: 'Text',
      option_values: { a: 'A' },
    });
    expect(String(lost.error_message)).to.match(/option_values needs an options widget/);
    const munged = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: groupId,
      label: 'a"; drop table crm_contact; --',
      data_type: 'Int',
      html_type: 'Text',
    });
    expect(munged, JSON.stringify(munged)).to.include({ is_error: 0 });
    expect(munged.values[String(munged.id)]).to.include({ name: 'a_drop_table_crm_contact' });
  });

  it('a type change existing values cannot take is refused, and the column is unchanged', async () => {
    const changed = await crm.api3(admin, 'CustomField', 'create', { id: colourId, data_type: 'Int' });
    expect(changed, JSON.stringify(changed)).to.include({ is_error: 1 });
    const got = await crm.api4(admin, 'Contact', 'get', {
      select: ['More_About.Favourite_colour'],
      where: [['first_name', '=', 'Bob']],
    });
    expect(got.values[0]['More_About.Favourite_colour']).to.equal('Green');
  });

  it('an EntityReference field needs an installed fk_entity, and keeps its ids real (a foreign key, as the reference)', async () => {
    const field = (values: Record<string, unknown>) =>
      crm.api4(admin, 'CustomField', 'create', {
        values: { custom_group_id: groupId, data_type: 'EntityReference', html_type: 'Autocomplete-Select', ...values },
      });
    for (const fk_entity of [undefined, 'Nonsense']) {
      const refused = await field({ label: 'Refused ref', fk_entity });
      expect(refused.error_message, JSON.stringify(refused)).to.match(/needs fk_entity, an installed entity/);
    }
    // An autocomplete over records, not options: no option_values needed.
    const made = await field({ label: 'Last visit', fk_entity: 'Activity' });
    expect(made.values?.[0], JSON.stringify(made)).to.include({
      fk_entity: 'Activity',
      fk_entity_on_delete: 'set_null',
    });
    const activity = async () =>
      Number(
        (
          await crm.api4(admin, 'Activity', 'create', {
            values: { activity_type_id: 1, subject: 'Visit', source_contact_id: ann },
          })
        ).values[0].id,
      );
    const visit = await activity();
    const stored = await crm.api4(admin, 'Contact', 'update', {
      where: [['id', '=', ann]],
      values: { 'More_About.Last_visit': visit },
    });
    expect(stored.values, JSON.stringify(stored)).to.have.length(1);
    const read = async () =>
      (
        await crm.api4(admin, 'Contact', 'get', {
          select: ['More_About.Last_visit', 'More_About.Last_visit.subject'],
          where: [['id', '=', ann]],
        })
      ).values[0];
    expect(await read()).to.deep.include({ 'More_About.Last_visit': visit, 'More_About.Last_visit.subject': 'Visit' });
    const dangling = await crm.api4(admin, 'Contact', 'update', {
      where: [['id', '=', ann]],
      values: { 'More_About.Last_visit': 987654 },
    });
    expect(dangling.error_message, JSON.stringify(dangling)).to.equal('DB Error: constraint violation');
    expect((await read())['More_About.Last_visit']).to.equal(visit); // nothing written
    await crm.api4(admin, 'Activity', 'delete', { where: [['id', '=', visit]] });
    expect((await read())['More_About.Last_visit']).to.equal(null); // fk_entity_on_delete: set_null
  });

  it('a field turned into a reference while its stored ids point at nothing is refused, and left as it was', async () => {
    const made = await crm.api4(admin, 'CustomField', 'create', {
      values: { custom_group_id: groupId, label: 'Visit number', data_type: 'Int', html_type: 'Text' },
    });
    const fieldId = Number(made.values[0].id);
    await crm.api4(admin, 'Contact', 'update', {
      where: [['id', '=', ann]],
      values: { 'More_About.Visit_number': 987654 },
    });
    const turned = await crm.api4(admin, 'CustomField', 'update', {
      where: [['id', '=', fieldId]],
      values: { data_type: 'EntityReference', html_type: 'Autocomplete-Select', fk_entity: 'Activity' },
    });
    expect(turned.error_message, JSON.stringify(turned)).to.match(
      /point at records that do not exist; empty them first/,
    );
    const field = await crm.api4(admin, 'CustomField', 'get', { select: ['data_type'], where: [['id', '=', fieldId]] });
    expect(field.values[0]).to.include({ data_type: 'Int' });
    const value = await crm.api4(admin, 'Contact', 'get', {
      select: ['More_About.Visit_number'],
      where: [['id', '=', ann]],
    });
    expect(value.values[0]['More_About.Visit_number']).to.equal(987654);
  });

  it('deleting a field drops its column; deleting the group drops its table and values', async () => {
    expect(await crm.api3(admin, 'CustomField', 'delete', { id: since })).to.include({ is_error: 0 });
    const fields = await crm.api3(admin, 'Contact', 'getfields', { action: 'get' });
    expect(fields.values).to.have.property(`custom_${colourId}`);
    expect(fields.values).to.not.have.property(`custom_${since}`);
    expect(await crm.api3(admin, 'CustomGroup', 'delete', { id: groupId })).to.include({ is_error: 0 });
    const { rows } = (await crm.t.kernel.db.raw('select to_regclass(?) as t', [`crm_value_more_about_${groupId}`])) as {
      rows: Array<{ t: string | null }>;
    };
    expect(rows[0].t).to.equal(null);
    const after = await crm.api4(admin, 'Contact', 'get', { select: ['More_About.Favourite_colour'] });
    expect(after).to.have.property('error_message');
  });
});
