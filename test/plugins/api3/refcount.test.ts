import { expect } from 'chai';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 getrefcount (4.5.0): standard, dynamic and option-value references', () => {
  let engine: Engine;
  let ann: number;
  before(async () => {
    engine = await bootEngine({ plugins: ['entity-note', 'entity-tag'] });
    await individual(engine.call, 'Admin', 'Author'); // contact 1: the caller, author of notes and tags
    ann = await individual(engine.call, 'Ann', 'Archer', { email: 'ann@example.org' });
  });
  after(async () => engine?.t.close());

  const optionId = async (group: string, name: string): Promise<number> => {
    const r = await engine.call('OptionValue', 'getsingle', { option_group_id: group, name, return: ['id'] });
    return Number(r.id);
  };

  it('counts a contact’s notes and entity tags as dynamic references, beside its emails', async () => {
    await engine.call('Note', 'create', { entity_id: ann, note: 'first' });
    await engine.call('Note', 'create', { entity_id: ann, note: 'second' });
    const tag = await engine.call('Tag', 'create', { name: 'VIP' });
    await engine.call('EntityTag', 'create', { contact_id: ann, tag_id: tag.id });
    const counts = await engine.call('Contact', 'getrefcount', { id: ann });
    expect(counts.values).to.have.deep.members([
      {
        name: 'sql:crm_email:contact_id',
        type: 'CRM_Core_Reference_Basic',
        table: 'crm_email',
        key: 'contact_id',
        count: 1,
      },
      {
        name: 'sql:crm_note:entity_id',
        type: 'CRM_Core_Reference_Dynamic',
        table: 'crm_note',
        key: 'entity_id',
        count: 2,
      },
      {
        name: 'sql:crm_entity_tag:entity_id',
        type: 'CRM_Core_Reference_Dynamic',
        table: 'crm_entity_tag',
        key: 'entity_id',
        count: 1,
      },
    ]);
  });

  it('counts the records using an option value, in plain and multi-valued (serialized) fields', async () => {
    await individual(engine.call, 'Bo', 'Baker', { prefix_id: 'Dr.', contact_sub_type: ['Student', 'Staff'] });
    await individual(engine.call, 'Cy', 'Cole', { prefix_id: 'Dr.', contact_sub_type: ['Student'] });
    const doctor = await engine.call('OptionValue', 'getrefcount', { id: await optionId('individual_prefix', 'Dr.') });
    expect(doctor.values).to.deep.equal([
      {
        name: 'sql:crm_contact:prefix_id',
        type: 'CRM_Core_Reference_OptionValue',
        table: 'crm_contact',
        key: 'prefix_id',
        count: 2,
      },
    ]);
    const student = await engine.call('OptionValue', 'getrefcount', {
      id: await optionId('contact_sub_type', 'Student'),
    });
    expect(student.values).to.deep.include({
      name: 'sql:crm_contact:contact_sub_type',
      type: 'CRM_Core_Reference_OptionValue',
      table: 'crm_contact',
      key: 'contact_sub_type',
      count: 2,
    });
    const staff = await engine.call('OptionValue', 'getrefcount', { id: await optionId('contact_sub_type', 'Staff') });
    expect(staff.values[0]).to.include({ key: 'contact_sub_type', count: 1 });
    const unused = await engine.call('OptionValue', 'getrefcount', {
      id: await optionId('contact_sub_type', 'Sponsor'),
    });
    expect(unused.values).to.deep.equal([]);
  });
});
