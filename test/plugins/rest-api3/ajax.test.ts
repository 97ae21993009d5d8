import { expect } from 'chai';
import type { TestKernel } from '../../../host/testing';
import { bootRest, golden, USER } from './helpers';

const PATH = '/crm/ajax/rest';

describe('rest-api3: /crm/ajax/rest', () => {
  let testKernel: TestKernel;
  before(async () => {
    testKernel = await bootRest();
  });
  after(() => testKernel.close());

  const get = async (qs: string, headers: Record<string, string> = USER) =>
    (await testKernel.http()).get(`${PATH}?${qs}`).set(headers);
  const post = async (qs: string, body: string, headers: Record<string, string> = USER) =>
    (await testKernel.http())
      .post(`${PATH}${qs ? `?${qs}` : ''}`)
      .set(headers)
      .type('form')
      .send(body);
  /** The params TestThing.getparams received. */
  const echoed = (res: { body: { values: Array<Record<string, unknown>> } }) => res.body.values[0];

  describe('routing and guards', () => {
    it('declares the auth methods of the compatibility table', async () => {
      const res = await get('entity=TestThing&action=getparams&json=1');
      expect(res.status).to.equal(200);
      const route = testKernel.kernel.plugins.find((p) => p.name === 'rest-api3');
      expect(route).to.exist;
      const { collectRoutes } = await import('../../../host');
      const routes = await collectRoutes(testKernel.kernel);
      const auth = Object.fromEntries(routes.filter((r) => r.plugin === 'rest-api3').map((r) => [r.name, r.auth]));
      expect(auth).to.deep.equal({
        ajax: ['authx', 'legacy-keys', 'session'],
        extern: ['legacy-keys'],
        wp: ['legacy-keys'],
      });
    });

    it('answers 403 with an unauthorized envelope when the caller lacks access CRM / access AJAX API', async () => {
      const anon = await get('entity=TestThing&action=get&json=1', {});
      expect(anon.status).to.equal(403);
      expect(anon.body).to.include({ error_code: 'unauthorized', is_error: 1 });
      const other = await get('entity=TestThing&action=get&json=1', {
        'x-test-perms': 'view all contacts',
        'x-test-flow': 'param',
      });
      expect(other.status).to.equal(403);
      const ajaxOnly = await get('entity=System&action=get&json=1', {
        'x-test-perms': 'access AJAX API',
        'x-test-flow': 'param',
      });
      expect(ajaxOnly.status).to.equal(200);
      // Past the menu check, the API's own permission check answers with an envelope at HTTP 200.
      expect(ajaxOnly.body).to.include({ error_code: 'unauthorized', entity: 'System', action: 'get', is_error: 1 });
      expect(Object.keys(ajaxOnly.body)).to.deep.equal(['error_code', 'entity', 'action', 'is_error', 'error_message']);
    });

    it('applies the CSRF guard to header and session flows only', async () => {
      const csrf = await get('entity=TestThing&action=get&json=1', {
        'x-test-perms': 'access CRM',
        'x-test-flow': 'header',
      });
      expect(csrf.status).to.equal(200);
      expect(csrf.type).to.equal('application/json');
      expect(Object.keys(csrf.body)).to.deep.equal(['IP', 'level', 'referer', 'reason', 'is_error', 'error_message']);
      expect(csrf.body).to.include({
        level: 'security',
        referer: null,
        reason: 'CSRF suspected',
        is_error: 1,
        error_message: 'SECURITY ALERT: Ajax requests can only be issued by javascript clients, eg. CRM.api3().',
      });
      // Always JSON, even when XML was asked for.
      const xml = await get('entity=TestThing&action=get', {
        'x-test-perms': 'access CRM',
        'x-test-flow': 'session',
        referer: 'https://x.example/',
      });
      expect(xml.type).to.equal('application/json');
      expect(xml.body.referer).to.equal('https://x.example/');
      for (const flow of ['header', 'session', 'login', 'auto']) {
        const ok = await get('entity=TestThing&action=getcount&json=1', {
          'x-test-perms': 'access CRM',
          'x-test-flow': flow,
          'X-Requested-With': 'XMLHttpRequest',
        });
        expect(ok.body, flow).to.deep.equal({ is_error: 0, result: 2 });
      }
      for (const flow of ['param', 'xheader', 'legacyrest']) {
        const ok = await get('entity=TestThing&action=getcount&json=1', {
          'x-test-perms': 'access CRM',
          'x-test-flow': flow,
        });
        expect(ok.body, flow).to.deep.equal({ is_error: 0, result: 2 });
      }
    });

    it('refuses destructive actions over GET, allows get* and check', async () => {
      const res = await get('entity=TestThing&action=create&json=1&name=x');
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['IP', 'level', 'referer', 'reason', 'is_error', 'error_message']);
      expect(res.body).to.include({
        reason: 'Destructive HTTP GET',
        is_error: 1,
        error_message: 'SECURITY: All requests that modify the database must be http POST, not GET.',
      });
      const del = await get('entity=TestThing&action=Delete&json=1');
      expect(del.body.reason).to.equal('Destructive HTTP GET');
      const check = await get('entity=TestThing&action=check&json=1');
      expect(check.body.reason, 'check passes the guard (and is then unknown)').to.equal(undefined);
      expect(check.body.error_code).to.equal('not-found');
      const getSingle = await get('entity=TestThing&action=GetSingle&json=1');
      expect(getSingle.body.id).to.equal('3');
      const created = await post('', 'entity=TestThing&action=create&json=1&name=x');
      expect(created.body).to.include({ is_error: 0, id: 9 });
    });

    it('reports a missing entity or action with the reference text', async () => {
      for (const qs of ['action=get&json=1', 'entity=TestThing&json=1', 'json=1', 'entity=&action=get&json=1']) {
        const res = await get(qs);
        expect(res.text, qs).to.equal(
          '{"error_message":"missing mandatory params \\"entity=\\" or \\"action=\\"","is_error":1}',
        );
      }
    });

    it('answers undecodable json with the positional-key quirk at HTTP 200', async () => {
      const res = await get('entity=TestThing&action=get&json=' + encodeURIComponent('{bad json'));
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('application/json');
      expect(res.text).to.equal('{"is_error":1,"0":"error_message","1":"Unable to decode supplied JSON."}');
    });

    it('renders an auth refusal without a raw response as error_message/is_error, with one as is', async () => {
      const json = await get('entity=TestThing&action=get&json=1', { 'x-test-reject': 'FATAL: Invalid credential' });
      expect(json.status).to.equal(200);
      expect(json.text).to.equal('{"error_message":"FATAL: Invalid credential","is_error":1}');
      const xml = await get('entity=TestThing&action=get', { 'x-test-reject': 'FATAL: Invalid credential' });
      expect(xml.type).to.equal('text/xml');
      expect(xml.text).to.contain('<error_message>FATAL: Invalid credential</error_message>');
      const raw = await get('entity=TestThing&action=get&json=1', { 'x-test-reject-raw': 'Invalid credential' });
      expect(raw.status).to.equal(401);
      expect(raw.type).to.equal('text/plain');
      expect(raw.text).to.equal('HTTP 401 Invalid credential');
    });
  });

  describe('parameters', () => {
    it('merges query and form body, POST winning, and mangles top-level names', async () => {
      const res = await post(
        'entity=TestThing&action=getparams&json=1&a=get&b=get',
        'a=post&option.limit=5&my%20x=1&options[offset]=2',
      );
      const p = echoed(res);
      expect(p).to.include({ a: 'post', b: 'get', option_limit: '5', my_x: '1', check_permissions: true, version: 3 });
      expect(p.options).to.deep.equal({ offset: '2' });
    });

    it('accepts everything in the query string of a POST with an empty body', async () => {
      const res = await (
        await testKernel.http()
      )
        .post(`${PATH}?entity=TestThing&action=create&json=1&name=Ann`)
        .set(USER);
      expect(res.body).to.include({ is_error: 0, id: 9 });
      expect((res.body.values['9'].params as Record<string, unknown>).name).to.equal('Ann');
    });

    it('builds nested params from brackets and adds return.<key>', async () => {
      const res = await get(
        'entity=TestThing&action=getparams&json=1&options[limit]=5&return[]=email&return[]=id&id[IN][]=1&id[IN][]=2',
      );
      const p = echoed(res);
      expect(p.options).to.deep.equal({ limit: '5' });
      expect(p.return).to.deep.equal(['email', 'id']);
      expect(p).to.include({ 'return.0': 1, 'return.1': 1 });
      expect(p.id).to.deep.equal({ IN: ['1', '2'] });
    });

    it('decodes json={…} as the base and lets request params override it; dotted keys inside stay', async () => {
      const json = encodeURIComponent(
        JSON.stringify({ sequential: 1, 'option.limit': 3, name: 'json', nested: { a: [1, 2] } }),
      );
      const res = await get(`entity=TestThing&action=getparams&json=${json}&name=url`);
      const p = echoed(res);
      expect(p).to.include({ sequential: 1, 'option.limit': 3, name: 'url' });
      expect(p.nested).to.deep.equal({ a: [1, 2] });
      expect(p).to.not.have.property('json');
    });

    it('takes json=1 with flat fields, and `debug=false` as a string', async () => {
      const res = await post('', 'entity=TestThing&action=getparams&json=1&sequential=1&debug=false');
      expect(echoed(res)).to.include({ sequential: '1', debug: 'false' });
    });

    it('reads multipart bodies', async () => {
      const res = await (
        await testKernel.http()
      )
        .post(PATH)
        .set(USER)
        .field('entity', 'TestThing')
        .field('action', 'getparams')
        .field('json', '1')
        .field('options[limit]', '7')
        .field('return[]', 'email')
        .field('return[]', 'phone')
        .field('option.sort', 'id');
      const echoedParams = echoed(res);
      expect(echoedParams.options).to.deep.equal({ limit: '7' });
      expect(echoedParams.return).to.deep.equal(['email', 'phone']);
      expect(echoedParams.option_sort).to.equal('id');
    });

    it('keeps credentials and AuthX params out of the API params; forces check_permissions', async () => {
      const res = await post(
        '',
        'entity=TestThing&action=getparams&json=1&key=site&api_key=secret' +
          '&_authx=Bearer+x&_authxSes=1&_authxSiteKey=s&check_permissions=0&q=civicrm/x/y',
      );
      const p = echoed(res);
      for (const k of ['key', 'api_key', '_authx', '_authxSes', '_authxSiteKey', 'q', 'entity', 'action', 'json'])
        expect(p, k).to.not.have.property(k);
      expect(p.check_permissions).to.equal(true);
    });

    it('ignores q on the ajax route (entity and action are required)', async () => {
      const res = await get('q=civicrm/TestThing/get&json=1');
      expect(res.body.error_message).to.equal('missing mandatory params "entity=" or "action="');
    });

    it('normalises entity and action names', async () => {
      const res = await get('entity=test_thing&action=GET&json=1');
      expect(res.body).to.include({ is_error: 0, count: 2 });
      const bad = await get('entity=testthing&action=get&json=1');
      expect(bad.body).to.include({ error_code: 'not-found', is_error: 1 });
      expect(bad.body.error_message).to.match(/^API \(Testthing, get\) does not exist/);
    });
  });

  describe('output', () => {
    it('wraps scalars and appends is_error to flat results', async () => {
      expect((await get('entity=TestThing&action=getcount&json=1')).text).to.equal('{"is_error":0,"result":2}');
      expect((await get('entity=TestThing&action=getvalue&json=1')).text).to.equal('{"is_error":0,"result":"Bob"}');
      expect((await get('entity=TestThing&action=getvalue&return=none&json=1')).text).to.equal(
        '{"is_error":0,"result":0}',
      );
      const single = await get('entity=TestThing&action=getsingle&json=1');
      expect(single.text).to.equal('{"id":"3","display_name":"Ann & Bo <ab>","email":"ann@example.org","is_error":0}');
      const del = await post('', 'entity=TestThing&action=delete&json=1&id=3');
      expect(del.text).to.equal('{"is_error":0,"version":3,"count":1,"values":1}');
    });

    it('pretty-prints with 4 spaces when prettyprint=1', async () => {
      const res = await get('entity=TestThing&action=get&json=1&prettyprint=1');
      expect(res.type).to.equal('application/json');
      golden('rest-api3/get-pretty.json', res.text);
      expect(res.text).to.contain('\n    "is_error": 0,');
      const off = await get('entity=TestThing&action=get&json=1&prettyprint=0');
      expect(off.text).to.not.contain('\n');
    });

    it('matches the JSON golden files', async () => {
      golden('rest-api3/get.json', (await get('entity=TestThing&action=get&json=1')).text);
      golden('rest-api3/get-sequential.json', (await get('entity=TestThing&action=get&json=1&sequential=1')).text);
      golden('rest-api3/getsingle.json', (await get('entity=TestThing&action=getsingle&json=1')).text);
      golden('rest-api3/error-thrown.json', (await get('entity=TestThing&action=getfail&json=1')).text);
      golden('rest-api3/error-returned.json', (await get('entity=TestThing&action=getreturned&json=1')).text);
      golden('rest-api3/getempty.json', (await get('entity=TestThing&action=getempty&json=1')).text);
    });

    it('serves XML when json is absent or empty, matching the golden files', async () => {
      const res = await get('entity=TestThing&action=get');
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('text/xml');
      golden('rest-api3/get.xml', res.text);
      golden('rest-api3/get-json0.xml', (await get('entity=TestThing&action=get&json=0')).text);
      golden('rest-api3/getsingle.xml', (await get('entity=TestThing&action=getsingle')).text);
      golden('rest-api3/getcount.xml', (await get('entity=TestThing&action=getcount')).text);
      golden('rest-api3/getoptions.xml', (await get('entity=TestThing&action=getoptions')).text);
      golden('rest-api3/getempty.xml', (await get('entity=TestThing&action=getempty')).text);
      golden('rest-api3/error-thrown.xml', (await get('entity=TestThing&action=getfail')).text);
      golden('rest-api3/error-returned.xml', (await get('entity=TestThing&action=getreturned')).text);
      golden(
        'rest-api3/destructive-get.xml',
        (await get('entity=TestThing&action=create')).text.replace(/<IP>[^<]*<\/IP>/, '<IP>…</IP>'),
      );
    });
  });

  describe('errors', () => {
    it('lays out thrown errors in the reference key order', async () => {
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
      expect(res.body).to.deep.include({
        fields: ['contact_type'],
        error_code: 'mandatory_missing',
        entity: 'TestThing',
        action: 'getfail',
      });
    });

    it('renders returned errors without error_code, entity and action', async () => {
      const res = await get('entity=TestThing&action=getreturned&json=1');
      expect(res.text).to.equal('{"count":0,"is_error":1,"error_message":"Expected one TestThing but found 0"}');
    });

    it('maps unknown actions to not-found and hides unexpected errors', async () => {
      const nf = await get('entity=Nope&action=get&json=1');
      expect(nf.status).to.equal(200);
      expect(nf.body).to.include({ error_code: 'not-found', entity: 'Nope', action: 'get', is_error: 1 });
      const crash = await get('entity=TestThing&action=getcrash&json=1');
      expect(crash.status).to.equal(200);
      expect(Object.keys(crash.body)).to.deep.equal(['is_error', 'error_message']);
      expect(crash.text).to.not.match(/SELECT|syntax|crm_contact|at .*\.ts/);
      expect(crash.body.error_message).to.match(/^Internal error/);
      expect(testKernel.logs.some((l) => l.includes('syntax error at or near'))).to.equal(true);
    });
  });

  describe('batch calls (entity=api3&action=call)', () => {
    it('keys the output like the input: list in, list out; object in, object out', async () => {
      const list = JSON.stringify([
        ['TestThing', 'getcount', {}],
        ['TestThing', 'getsingle', {}],
        ['TestThing', 'getfail', {}],
      ]);
      const res = await post('', `entity=api3&action=call&json=${encodeURIComponent(list)}`);
      expect(res.body).to.be.an('array').with.length(3);
      expect(res.body[0]).to.equal(2);
      expect(res.body[1]).to.include({ id: '3' });
      expect(res.body[2]).to.include({
        error_code: 'mandatory_missing',
        entity: 'TestThing',
        action: 'getfail',
        is_error: 1,
      });
      const obj = JSON.stringify({ one: ['TestThing', 'get', { sequential: 1 }], two: ['Nope', 'get'] });
      const res2 = await post('', `entity=api3&action=call&json=${encodeURIComponent(obj)}`);
      expect(Object.keys(res2.body)).to.deep.equal(['one', 'two']);
      expect(res2.body.one.values).to.have.length(2);
      expect(res2.body.two).to.include({ error_code: 'not-found', entity: 'Nope' });
    });

    it('applies the GET guard and forced permission checks to each sub-call', async () => {
      const calls = JSON.stringify([
        ['TestThing', 'create', {}],
        ['TestThing', 'getparams', { check_permissions: 0 }],
      ]);
      const res = await get(`entity=api3&action=call&json=${encodeURIComponent(calls)}`);
      expect(res.body[0]).to.include({ reason: 'Destructive HTTP GET' });
      expect(res.body[1].values[0].check_permissions).to.equal(true);
    });
  });
});
