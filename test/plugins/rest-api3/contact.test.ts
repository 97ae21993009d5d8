/** Real clients' request styles against the real APIv3 engine and Contact entity, through the routes. */
import { expect } from 'chai';
import type { TestKernel } from '../../../host/testing';
import { BASE_PLUGINS, bootRest } from './helpers';

const ADMIN = { 'x-test-perms': '*', 'x-test-flow': 'param' };

describe('rest-api3 with the api3 engine (Contact)', () => {
  let testKernel: TestKernel;
  before(async () => {
    testKernel = await bootRest({ plugins: [...BASE_PLUGINS, 'entity-option', 'entity-contact'] });
    const h = await testKernel.http();
    // Flat fields with json=1, a chained create with bracket syntax (api.Email.create → api_Email_create).
    const res = await h
      .post('/crm/ajax/rest')
      .set(ADMIN)
      .type('form')
      .send(
        'entity=Contact&action=create&json=1&contact_type=Individual&first_name=Ann&last_name=Bo&api.Email.create[email]=ann@example.org',
      );
    expect(res.body).to.include({ is_error: 0, id: 1 });
    expect(res.body.values['1'].api_Email_create).to.include({ is_error: 0, count: 1 });
  });
  after(() => testKernel.close());

  it('CiviMRF style: form-encoded POST with json={…} params', async () => {
    const json = JSON.stringify({ sequential: 1, return: ['display_name'], 'api.Email.get': { return: 'email' } });
    const res = await (
      await testKernel.http()
    )
      .post('/crm/ajax/rest')
      .set({ ...ADMIN, 'x-test-flow': 'xheader', 'X-Requested-With': 'XMLHttpRequest' })
      .type('form')
      .send({ entity: 'Contact', action: 'get', version: '3', json });
    expect(res.body).to.include({ is_error: 0, count: 1 });
    expect(res.body.values[0].display_name).to.equal('Ann Bo');
    expect(res.body.values[0]['api.Email.get'].values[0].email).to.equal('ann@example.org');
  });

  it('CRM.api3 style: GET with a lowercased action and mangled legacy option names', async () => {
    const res = await (
      await testKernel.http()
    )
      .get('/crm/ajax/rest?entity=contact&action=getsingle&json=1&option.limit=1&return[]=display_name&return[]=email')
      .set({ 'x-test-perms': '*', 'x-test-flow': 'session', 'X-Requested-With': 'XMLHttpRequest' });
    expect(res.body).to.deep.equal({ display_name: 'Ann Bo', email: 'ann@example.org', id: '1', is_error: 0 });
  });

  it('scalars, returned and thrown errors, XML, over the real engine', async () => {
    const http = await testKernel.http();
    expect((await http.get('/crm/ajax/rest?entity=Contact&action=getcount&json=1').set(ADMIN)).text).to.equal(
      '{"is_error":0,"result":1}',
    );
    expect(
      (await http.get('/crm/ajax/rest?entity=Contact&action=getvalue&json=1&return=display_name&id=1').set(ADMIN)).text,
    ).to.equal('{"is_error":0,"result":"Ann Bo"}');
    expect((await http.get('/crm/ajax/rest?entity=Contact&action=getsingle&json=1&id=999').set(ADMIN)).text).to.equal(
      '{"count":0,"is_error":1,"error_message":"Expected one Contact but found 0"}',
    );
    expect((await http.post('/crm/ajax/rest?entity=Contact&action=create&json=1').set(ADMIN)).text).to.equal(
      '{"fields":["contact_type"],"error_code":"mandatory_missing","entity":"Contact","action":"create","is_error":1,' +
        '"error_message":"Mandatory key(s) missing from params array: contact_type"}',
    );
    const xml = await http.get('/crm/ajax/rest?entity=Contact&action=get&return=display_name').set(ADMIN);
    expect(xml.text).to.equal(
      '<?xml version="1.0"?>\n      <ResultSet xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"  count="1" >\n      <Result>\n    <display_name>Ann Bo</display_name>\n    <id>1</id>\n</Result>\n</ResultSet>\n',
    );
  });

  it('lets nothing destructive through GET and keeps check_permissions on', async () => {
    const h = await testKernel.http();
    const del = await h.get('/crm/ajax/rest?entity=Contact&action=delete&json=1&id=1').set(ADMIN);
    expect(del.body.reason).to.equal('Destructive HTTP GET');
    const viewer = await h
      .post('/crm/ajax/rest')
      .set({ 'x-test-perms': 'access AJAX API', 'x-test-flow': 'param' })
      .type('form')
      .send('entity=Contact&action=create&json=1&contact_type=Individual&first_name=Eve&check_permissions=0');
    expect(viewer.body).to.include({ error_code: 'unauthorized', entity: 'Contact', action: 'create', is_error: 1 });
    expect((await h.get('/crm/ajax/rest?entity=Contact&action=getcount&json=1').set(ADMIN)).body.result).to.equal(1);
  });

  it('legacy extern/rest.php with q= and the WordPress route', async () => {
    const h = await testKernel.http();
    const ext = await h
      .get('/crm/extern/rest.php?q=civicrm/Contact/get&json=1&return=display_name')
      .set({ 'x-test-perms': '*', 'x-test-flow': 'legacy' });
    expect(ext.body.values['1'].display_name).to.equal('Ann Bo');
    const wp = await h
      .get('/wp-json/crm/v3/rest?entity=Contact&action=get&json=' + encodeURIComponent('{"return":"display_name"}'))
      .set({ 'x-test-perms': '*', 'x-test-flow': 'legacy' });
    expect(wp.body.values).to.deep.equal([{ display_name: 'Ann Bo', id: '1' }]);
  });
});
