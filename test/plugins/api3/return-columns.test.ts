import { expect } from 'chai';
import { principalWith } from '../../../host/testing';
import { ADMIN, bootEngine, individual, type Engine } from './helpers';

/**
 * A get's columns are kept for the next get with the same `return` list (plugins/api3/return-columns.ts): what a
 * later caller sees must still depend on who asks and on the option labels of the moment.
 */
describe('api3 kept return columns: per reader, and forgotten when option labels change', () => {
  let engine: Engine;
  let ann: number;
  before(async () => {
    engine = await bootEngine();
    ann = await individual(engine.call, 'Ann', 'Archer', { gender_id: 'Female', api_key: 'ann-key-0123456789' });
  });
  after(async () => engine?.t.close());

  it('a secret field named in return shows to a reader with the permission only, whoever asked first', async () => {
    const reader = principalWith(['access CRM', 'view all contacts'], 1);
    const params = { id: ann, return: 'display_name,api_key', sequential: 1 };
    const asReader = async () => (await engine.call('Contact', 'get', params, reader)).values[0];
    const asAdmin = async () => (await engine.call('Contact', 'get', params, ADMIN)).values[0];
    expect(await asAdmin()).to.include({ display_name: 'Ann Archer', api_key: 'ann-key-0123456789' });
    expect(await asReader()).to.deep.equal({ id: String(ann), display_name: 'Ann Archer' });
    expect(await asAdmin()).to.have.property('api_key', 'ann-key-0123456789');
    expect(await asReader()).not.to.have.property('api_key');
  });

  it('an option label shown by a get follows a change of the option value', async () => {
    const genderOf = async () => (await engine.call('Contact', 'get', { id: ann, sequential: 1 })).values[0].gender;
    expect(await genderOf()).to.equal('Female');
    const female = await engine.call('OptionValue', 'get', {
      option_group_id: 'gender',
      name: 'Female',
      sequential: 1,
    });
    await engine.call('OptionValue', 'create', { id: female.values[0].id, label: 'Woman' });
    expect(await genderOf()).to.equal('Woman');
  });
});
