/** Constant.get (deprecated since 4.3.0): a named constant answered from getoptions, with the deprecation notice. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('api3-constant: Constant.get', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['api3-constant', 'entity-option'] });
    admin = (await crm.userWith('root', ['access CRM'])).headers;
  });
  after(() => crm?.t.close());

  it('4.3.0 Constant API deprecated: Constant.get answers what getoptions answers, with the notice', async () => {
    const constant = await crm.api3(admin, 'Constant', 'get', { name: 'locationType' });
    expect(constant, JSON.stringify(constant)).to.include({ is_error: 0 });
    expect(constant.deprecated).to.match(/deprecated.*getoptions/);
    const options = await crm.api3(admin, 'Address', 'getoptions', { field: 'location_type_id' });
    expect(constant.values).to.deep.equal(options.values);
    expect(Object.values(constant.values)).to.include('Home');
  });

  it('gender and individualPrefix come from their option groups', async () => {
    const gender = await crm.api3(admin, 'Constant', 'get', { name: 'gender' });
    expect(Object.values(gender.values)).to.include.members(['Female', 'Male']);
    const prefix = await crm.api3(admin, 'Constant', 'get', { name: 'individualPrefix' });
    expect(Object.values(prefix.values)).to.include('Mr.');
  });

  it('an unknown or missing name is an API error; a constant whose entity is not installed names it', async () => {
    expect(await crm.api3(admin, 'Constant', 'get', { name: 'nothing' })).to.include({ is_error: 1 });
    expect(await crm.api3(admin, 'Constant', 'get', {})).to.include({ is_error: 1 });
    const absent = await crm.api3(admin, 'Constant', 'get', { name: 'activityType' });
    expect(absent).to.include({ is_error: 1 });
    expect(String(absent.error_message)).to.contain('Activity');
  });
});
