import { expect } from 'chai';
import type { TestKernel } from '../../../host/testing';
import { bootRest, golden } from './helpers';

/** A legacy-keys caller: no X-Requested-With, flow legacyrest. */
const KEYED = { 'x-test-perms': 'access CRM', 'x-test-flow': 'legacyrest' };

describe('rest-api3: <prefix>/extern/rest.php', () => {
  let testKernel: TestKernel;
  before(async () => {
    testKernel = await bootRest({ config: { pluginConfig: { 'rest-api3': { externPrefix: '/legacy/' } } } });
  });
  after(() => testKernel.close());
  const get = async (qs: string, headers: Record<string, string> = KEYED) =>
    (await testKernel.http()).get(`/legacy/extern/rest.php?${qs}`).set(headers);

  it('is mounted under the configured prefix and not the default one', async () => {
    expect((await get('entity=TestThing&action=getcount&json=1')).text).to.equal('{"is_error":0,"result":2}');
    const other = await (
      await testKernel.http()
    )
      .get('/crm/extern/rest.php?entity=TestThing&action=get&json=1')
      .set(KEYED);
    expect(other.status).to.equal(404);
  });

  it('answers ping without credentials, and even when the auth plugin refuses', async () => {
    expect((await get('q=civicrm/ping&json=1', {})).text).to.equal('{"is_error":0,"message":"PONG: "}');
    expect(
      (await get('q=civicrm/ping&json=1', { 'x-test-reject': "FATAL: mandatory param 'api_key' (user key) missing" }))
        .text,
    ).to.equal('{"is_error":0,"message":"PONG: "}');
    const xml = await get('q=civicrm/ping', {});
    expect(xml.type).to.equal('text/xml');
    golden('rest-api3/extern-ping.xml', xml.text);
  });

  it('rejects malformed q paths before looking at credentials', async () => {
    for (const q of ['civicrm', 'civicrm/Contact', 'drupal/Contact/get', 'civicrm/a/b/c']) {
      expect((await get(`q=${q}&json=1`, { 'x-test-reject': 'Failed to authenticate key' })).text, q).to.equal(
        '{"error_message":"ERROR: Malformed REST path","is_error":1}',
      );
    }
  });

  it('routes q=civicrm/<entity>/<action>', async () => {
    const res = await get('q=civicrm/TestThing/getsingle&json=1');
    expect(res.body).to.include({ id: '3', is_error: 0 });
  });

  it('renders a legacy-key refusal (no raw response) as error_message/is_error at HTTP 200 in JSON or XML', async () => {
    const json = await get('entity=TestThing&action=get&json=1', {
      'x-test-reject': 'ERROR: No CMS user associated with given api-key',
    });
    expect(json.status).to.equal(200);
    expect(json.text).to.equal('{"error_message":"ERROR: No CMS user associated with given api-key","is_error":1}');
    const xml = await get('entity=TestThing&action=get', { 'x-test-reject': 'Failed to authenticate key' });
    expect(xml.type).to.equal('text/xml');
    golden('rest-api3/extern-auth-failure.xml', xml.text);
  });

  it('refuses anonymous callers (no key at all) without calling the API', async () => {
    const res = await get('entity=TestThing&action=get&json=1', {});
    expect(res.text).to.equal('{"error_message":"Failed to authenticate key","is_error":1}');
  });

  it('needs no X-Requested-With and serves the same envelopes', async () => {
    const res = await (
      await testKernel.http()
    )
      .post('/legacy/extern/rest.php')
      .set({ 'x-test-perms': 'access CRM', 'x-test-flow': 'header' })
      .type('form')
      .send('entity=TestThing&action=create&json=1&key=k&api_key=a&name=Z');
    expect(res.body).to.include({ is_error: 0, id: 9 });
    expect(res.body.values['9'].params).to.not.have.property('api_key');
    const guard = await get('entity=TestThing&action=create&json=1');
    expect(guard.body.reason).to.equal('Destructive HTTP GET');
  });
});

describe('rest-api3: /wp-json/crm/v3/rest', () => {
  let testKernel: TestKernel;
  before(async () => {
    testKernel = await bootRest();
  });
  after(() => testKernel.close());
  const PATH = '/wp-json/crm/v3/rest';
  const get = async (qs: string, headers: Record<string, string> = KEYED) =>
    (await testKernel.http()).get(`${PATH}?${qs}`).set(headers);

  it('takes params only from a JSON-string json, dropping the other query params', async () => {
    const json = encodeURIComponent(JSON.stringify({ sequential: 1, a: 'json' }));
    const res = await get(`entity=TestThing&action=getparams&json=${json}&b=url&key=k&api_key=s`);
    expect(res.body.values[0]).to.deep.equal({ sequential: 1, a: 'json', check_permissions: true, version: 3 });
  });

  it('takes every remaining arg (json included) when json is numeric or absent', async () => {
    const res = await get('entity=TestThing&action=getparams&json=1&b=url&options[limit]=2&api_key=s');
    expect(res.body.values[0]).to.deep.include({
      json: '1',
      b: 'url',
      options: { limit: '2' },
      check_permissions: true,
    });
    expect(res.body.values[0]).to.not.have.property('api_key');
  });

  it('reads a JSON request body like WordPress does', async () => {
    const res = await (
      await testKernel.http()
    )
      .post(`${PATH}?json=1`)
      .set(KEYED)
      .send({ entity: 'TestThing', action: 'getparams', name: 'body' });
    expect(res.body.values[0]).to.include({ name: 'body' });
  });

  it('always returns values as a list; empty results as []; getsingle as is', async () => {
    const res = await get('entity=TestThing&action=get&json=1');
    expect(res.body.values).to.be.an('array').with.length(2);
    golden('rest-api3/wp-get.json', res.text);
    expect((await get('entity=TestThing&action=getsingle&json=1')).text).to.equal(
      '{"id":"3","display_name":"Ann & Bo <ab>","email":"ann@example.org"}',
    );
    expect((await get('entity=TestThing&action=getvalue&return=none&json=1')).text).to.equal('[]');
    expect((await get('entity=TestThing&action=getcount&json=1')).text).to.equal('2');
  });

  it('serves its own XML flavour when json is absent', async () => {
    const res = await get('entity=TestThing&action=get');
    expect(res.type).to.equal('text/xml');
    golden('rest-api3/wp-get.xml', res.text);
    golden('rest-api3/wp-getsingle.xml', (await get('entity=TestThing&action=getsingle')).text);
    golden('rest-api3/wp-error.xml', (await get('entity=TestThing&action=getfail')).text);
    // An empty json still means JSON on this route.
    expect((await get('entity=TestThing&action=getcount&json=')).type).to.equal('application/json');
  });

  it('renders API errors as the envelope at HTTP 200', async () => {
    const res = await get('entity=TestThing&action=getfail&json=1');
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal([
      'fields',
      'error_code',
      'entity',
      'action',
      'is_error',
      'error_message',
    ]);
  });

  it('answers a missing entity/action or invalid json like WordPress (400)', async () => {
    const missing = await get('action=get&json=1');
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): entity',
      data: { status: 400, params: ['entity'] },
    });
    const bad = await get('entity=TestThing&action=get&json=%7Bnope');
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.equal('rest_invalid_param');
  });
});
