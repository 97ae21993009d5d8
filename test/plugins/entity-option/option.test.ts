import { expect } from 'chai';
import { bootEngine, type Engine } from '../api3/helpers';

describe('entity-option', () => {
  let engine: Engine;
  before(async () => {
    engine = await bootEngine();
  });
  after(async () => engine?.t.close());

  it('seeds the option groups and location types', async () => {
    const groups = (
      await engine.call('OptionGroup', 'get', { options: { limit: 0 }, return: 'name', sequential: 1 })
    ).values.map((v: any) => v.name);
    expect(groups).to.include.members([
      'gender',
      'individual_prefix',
      'individual_suffix',
      'phone_type',
      'website_type',
      'preferred_communication_method',
      'communication_style',
      'contact_type',
      'contact_sub_type',
    ]);
    const lt = await engine.call('LocationType', 'get', { is_default: 1, sequential: 1 });
    expect(lt.values).to.have.length(1);
    expect(lt.values[0]).to.include({ name: 'Home', is_default: '1' });
  });

  it('OptionValue accepts the group by name (and option_group_name), fills value, weight and name', async () => {
    const created = await engine.call('OptionValue', 'create', { option_group_id: 'gender', label: 'Non-binary' });
    expect(created.values[created.id]).to.include({ value: '4', weight: '4', name: 'Non-binary', is_active: '1' });
    expect((await engine.call('Contact', 'getoptions', { field: 'gender_id' })).values).to.deep.equal({
      1: 'Female',
      2: 'Male',
      3: 'Other',
      4: 'Non-binary',
    });
    const byAlias = await engine.call('OptionValue', 'get', {
      option_group_name: 'gender',
      value: '4',
      return: 'label',
      sequential: 1,
    });
    expect(byAlias.values[0].label).to.equal('Non-binary');
  });

  it('a disabled option value is no longer offered nor accepted', async () => {
    const r = await engine.call('OptionValue', 'get', { option_group_id: 'phone_type', name: 'Pager' });
    await engine.call('OptionValue', 'create', { id: r.id, is_active: 0 });
    expect((await engine.call('Phone', 'getoptions', { field: 'phone_type_id' })).values).not.to.have.property('4');
    const err = await engine.fail('Phone', 'create', { contact_id: 1, phone: '1', phone_type_id: 'Pager' });
    expect(err.message).to.equal("'Pager' is not a valid option for field phone_type_id");
  });

  it('OptionValue.create needs option_group_id and label', async () => {
    const err = await engine.fail('OptionValue', 'create', { value: 9 });
    expect(err.details).to.deep.include({ fields: ['option_group_id', 'label'], error_code: 'mandatory_missing' });
    expect(
      (await engine.fail('OptionValue', 'create', { option_group_id: 'no_such_group', label: 'x' })).message,
    ).to.equal("'no_such_group' is not a valid option for field option_group_id");
  });

  it('one default location type, one default value per option group', async () => {
    const lt = await engine.call('LocationType', 'create', { name: 'Cabin', display_name: 'Cabin', is_default: 1 });
    const defaults = await engine.call('LocationType', 'get', { is_default: 1, sequential: 1, return: 'name' });
    expect(defaults.values.map((v: any) => v.name)).to.deep.equal(['Cabin']);
    const a = await engine.call('OptionValue', 'create', {
      option_group_id: 'website_type',
      label: 'Mastodon',
      is_default: 1,
    });
    await engine.call('OptionValue', 'create', { option_group_id: 'website_type', label: 'Bluesky', is_default: 1 });
    expect(await engine.call('OptionValue', 'getvalue', { id: a.id, return: 'is_default' })).to.equal('0');
    await engine.call('LocationType', 'create', { id: 1, is_default: 1 });
    await engine.call('LocationType', 'delete', { id: lt.id });
  });

  it('LocationType.getoptions lists display names', async () => {
    expect((await engine.call('Address', 'getoptions', { field: 'location_type_id' })).values).to.deep.equal({
      1: 'Home',
      2: 'Work',
      3: 'Main',
      4: 'Other',
      5: 'Billing',
    });
  });
});
