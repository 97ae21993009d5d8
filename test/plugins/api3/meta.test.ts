import { expect } from 'chai';
import { principalWith } from '../../../host/testing';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 meta actions: getfields, getoptions, getunique, getrefcount, getlist, getactions', () => {
  let engine: Engine;
  let ann: number;
  before(async () => {
    engine = await bootEngine();
    ann = await individual(engine.call, 'Ann', 'Archer', { email: 'ann@example.org' });
    await individual(engine.call, 'Andy', 'Anders');
    for (let i = 0; i < 16; i++) await individual(engine.call, `Zed${i}`, 'Zulu');
  });
  after(async () => engine?.t.close());

  it('getfields for create: keyed by name, type codes, api.required, aliases, uniqueName', async () => {
    const result = await engine.call('Contact', 'getfields', { action: 'create' });
    expect(result.is_error).to.equal(0);
    expect(result.values.contact_type).to.include({
      name: 'contact_type',
      type: 2,
      title: 'Contact Type',
      'api.required': 1,
      table_name: 'crm_contact',
      entity: 'Contact',
      is_core_field: true,
    });
    expect(result.values.contact_type.pseudoconstant).to.deep.equal({ optionGroupName: 'contact_type' });
    expect(result.values.id).to.include({ type: 1 });
    expect(result.values.id['api.aliases']).to.deep.equal(['contact_id']);
    expect(result.values.is_deleted).to.include({ uniqueName: 'contact_is_deleted', type: 16 });
    expect(result.values.birth_date.type).to.equal(4);
    expect(result.values.gender_id['api.aliases']).to.deep.equal(['gender']);
    expect(result.values).to.have.property('api_key');
    expect(result.values).not.to.have.property('gender'); // read-only label fields are get-only
    const staff = await engine.call('Contact', 'getfields', { action: 'create' }, principalWith(['access CRM'], 1));
    expect(staff.values).not.to.have.property('api_key');
    expect(result.count).to.equal(Object.keys(result.values).length);
  });
  it('getfields for get keys by unique name; api_action works; delete has only id', async () => {
    const g = await engine.call('Contact', 'getfields', { api_action: 'get' });
    expect(g.values).to.have.property('contact_is_deleted');
    expect(g.values.contact_is_deleted['api.default']).to.equal(0);
    const d = await engine.call('Email', 'getfields', { action: 'delete' });
    expect(d.values).to.deep.equal({
      id: { name: 'id', title: 'Email ID', 'api.required': 1, 'api.aliases': ['email_id'], type: 1 },
    });
    const fk = await engine.call('Email', 'getfields', {});
    expect(fk.values.contact_id).to.include({ FKApiName: 'Contact' });
  });
  it('getfields options.get_options adds option lists', async () => {
    const r = await engine.call('Contact', 'getfields', { action: 'create', options: { get_options: 'gender_id' } });
    expect(r.values.gender_id.options).to.deep.equal({ 1: 'Female', 2: 'Male', 3: 'Other' });
    expect(r.values.prefix_id).not.to.have.property('options');
  });
  it('getoptions: map, sequential list, unknown field, field without options', async () => {
    expect((await engine.call('Phone', 'getoptions', { field: 'phone_type_id' })).values).to.deep.equal({
      1: 'Phone',
      2: 'Mobile',
      3: 'Fax',
      4: 'Pager',
      5: 'Voicemail',
    });
    const seq = await engine.call('Email', 'getoptions', { field: 'location_type_id', sequential: 1 });
    expect(seq.values[0]).to.deep.equal({ key: '1', value: 'Home' });
    expect((await engine.fail('Email', 'getoptions', { field: 'nope' })).message).to.equal(
      "The field 'nope' doesn't exist.",
    );
    expect((await engine.fail('Email', 'getoptions', { field: 'email' })).message).to.equal(
      "The field 'email' has no associated option list.",
    );
  });
  it('getunique lists unique indexes', async () => {
    expect((await engine.call('Contact', 'getunique', {})).values).to.deep.equal({
      UI_external_identifier: ['external_identifier'],
    });
  });
  it('getrefcount counts referencing rows; unknown ids give an empty list', async () => {
    const r = await engine.call('Contact', 'getrefcount', { id: ann });
    expect(r.values).to.deep.equal([
      {
        name: 'sql:crm_email:contact_id',
        type: 'CRM_Core_Reference_Basic',
        table: 'crm_email',
        key: 'contact_id',
        count: 1,
      },
    ]);
    expect((await engine.call('Contact', 'getrefcount', { id: 999999 })).values).to.deep.equal([]);
    expect((await engine.fail('Contact', 'getrefcount', {})).details).to.include({ error_code: 'mandatory_missing' });
  });
  it('getlist searches the label field by prefix, pages by 15, reports more_results', async () => {
    const r = await engine.call('Contact', 'getlist', { input: 'an' });
    expect(r.values.map((v: any) => v.label)).to.deep.equal(['Anders, Andy']);
    expect(Object.keys(r)).to.deep.equal(['is_error', 'version', 'count', 'id', 'values', 'page_num', 'more_results']);
    const page1 = await engine.call('Contact', 'getlist', { input: 'zulu' });
    expect(page1.count).to.equal(15);
    expect(page1.more_results).to.equal(true);
    const page2 = await engine.call('Contact', 'getlist', { input: 'zulu', page_num: 2 });
    expect(page2).to.include({ count: 1, page_num: 2, more_results: false });
    const byId = await engine.call('Contact', 'getlist', { id: ann });
    expect(byId.values[0]).to.deep.equal({ id: String(ann), label: 'Archer, Ann', description: [] });
  });
  it('getactions includes every generic action and the deprecated map', async () => {
    const result = await engine.call('Email', 'getactions', {});
    expect(result.values).to.include.members([
      'get',
      'getsingle',
      'getvalue',
      'getcount',
      'create',
      'delete',
      'replace',
      'validate',
      'getrefcount',
      'getlist',
      'getoptions',
      'getfields',
      'getactions',
      'getunique',
      'setvalue',
      'update',
    ]);
  });
});
