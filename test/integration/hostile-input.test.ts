/**
 * The holes the hostile suite (test/hostile, issue 17) found, each pinned over HTTP on the default
 * plugin set: chained writes over GET, bodies the parser cannot read, unsupported methods, the request
 * limits (chains, IN lists, nesting, rows per read) and their configuration, NUL bytes in login and
 * OAuth state, a JWT subject beyond the integer range, and log lines cut to size.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { bootTestKernel, type TestKernel } from '../../host/testing';
import { issueJwt, type IdentityStore, type Keyring } from '../../plugins/users';
import { dbError } from '../../plugins/entity-core';

const SITE_KEY = 'hostile-input-site-key';
const PASSWORD = 'a long enough password';

describe('integration: hostile input (issue 17)', function () {
  this.timeout(60000);
  let booted: TestKernel;
  let http: supertest.Agent;
  let admin: { contactId: number; key: string };
  let reader: { contactId: number; key: string };
  const emails = async () => Number((await booted.kernel.db('crm_email').count({ n: '*' }))[0].n);

  before(async () => {
    booted = await bootTestKernel({
      config: {
        pluginConfig: { users: { siteKey: SITE_KEY } },
        limits: { chainedCalls: 3, inList: 5, nestingDepth: 12, rowsPerRead: 3 },
      },
    });
    http = await booted.http();
    const identity = booted.kernel.container.resolve<IdentityStore>('identity');
    const db = booted.kernel.db;
    await identity.grantPermissions(db, 'reader', ['access CRM', 'view all contacts', 'authenticate with api key']);
    const make = async (name: string, roles: string[]) => {
      const u = await identity.createUser(db, { username: name, password: PASSWORD, roles });
      return { contactId: u.contact_id, key: (await identity.createApiKey(db, u.contact_id)).key };
    };
    admin = await make('boss', ['administrator']);
    reader = await make('reader', ['reader']);
    for (const name of ['Ann', 'Bob', 'Cid'])
      await v4(admin.key, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: name } }).expect(
        200,
      );
  });
  after(() => booted.close());

  const v4 = (key: string, entity: string, action: string, params: unknown) =>
    http
      .post(`/crm/ajax/api4/${entity}/${action}`)
      .set('X-Crm-Auth', `Bearer ${key}`)
      .type('form')
      .send({ params: JSON.stringify(params) });
  const v3 = (path: string, json: unknown, method: 'get' | 'post' = 'post') => {
    const q = { entity: 'Contact', action: 'get', json: JSON.stringify(json), key: SITE_KEY, api_key: admin.key };
    return method === 'get' ? http.get(path).query(q) : http.post(path).type('form').send(q);
  };

  describe('the destructive-GET rule holds for every call of an APIv3 chain', () => {
    for (const path of ['/crm/ajax/rest', '/crm/extern/rest.php', '/wp-json/crm/v3/rest']) {
      it(`refuses a chained create, and a write nested in a chained get, over GET on ${path}`, async () => {
        const before = await emails();
        for (const json of [
          { id: admin.contactId, 'api.Email.create': { email: 'x@example.org' } },
          { id: admin.contactId, 'api.Email.get': { 'api.Email.delete': {} } },
          { id: admin.contactId, api_Email_create: [{ email: 'y@example.org' }] },
        ]) {
          const answer = await v3(path, json, 'get').set('X-Crm-Auth', `Bearer ${admin.key}`);
          expect(answer.body, path).to.include({
            is_error: 1,
            error_message: 'SECURITY: All requests that modify the database must be http POST, not GET.',
          });
        }
        expect(await emails()).to.equal(before);
        // Read-only chains over GET still run.
        const ok = await v3(path, { id: admin.contactId, 'api.Email.get': {} }, 'get').set(
          'X-Crm-Auth',
          `Bearer ${admin.key}`,
        );
        expect(ok.body.is_error ?? 0).to.equal(0);
      });
    }
  });

  describe('request bodies and methods are answered by the route, in its envelope, with a 4xx', () => {
    it('Content-Encoding: gzip on a plain body: 400 (APIv3 envelope; APIv4 error shape)', async () => {
      const r3 = await http
        .post('/crm/ajax/rest?json=1')
        .set('X-Crm-Auth', `Bearer ${admin.key}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .set('Content-Encoding', 'gzip')
        .send('entity=Contact&action=get');
      expect(r3.status).to.equal(400);
      expect(r3.body).to.include({ is_error: 1 });
      expect(r3.body.error_message).to.match(/^Malformed request body/);
      const r4 = await http
        .post('/crm/ajax/api4/Contact/get')
        .set('X-Crm-Auth', `Bearer ${admin.key}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .set('Content-Encoding', 'gzip')
        .send('params={}');
      expect(r4.status).to.equal(400);
      expect(r4.body).to.include({ error_code: 'E_BAD_REQUEST', status: 400 });
    });

    it('a multipart body without boundary, invalid JSON, and an oversized body', async () => {
      const multipart = await http
        .post('/crm/extern/rest.php?json=1')
        .set('Content-Type', 'multipart/form-data')
        .send('--x\r\n\r\n');
      expect(multipart.status).to.equal(400);
      expect(multipart.body).to.include({ is_error: 1 });
      const json = await http
        .post('/crm/ajax/api4/Contact/get')
        .set('X-Crm-Auth', `Bearer ${admin.key}`)
        .set('Content-Type', 'application/json')
        .send('{"where":');
      expect(json.status).to.equal(400);
      expect(json.body.error_code).to.equal('E_BAD_REQUEST');
      const big = await http
        .post('/wp-json/crm/v3/rest?json=1')
        .type('form')
        .send(`pad=${'x'.repeat(2 * 1024 * 1024 + 10)}`);
      expect(big.status).to.equal(413);
      expect(big.body).to.include({ is_error: 1, error_message: 'The request body is too large (2 MB at most)' });
    });

    it('a method the path does not serve: 405 with Allow, in the envelope; OPTIONS: 204 with Allow', async () => {
      const r = await http.put('/crm/ajax/rest?json=1');
      expect(r.status).to.equal(405);
      expect(r.headers.allow).to.equal('HEAD, GET, POST');
      expect(r.body).to.include({
        is_error: 1,
        error_message: 'Method PUT is not allowed here (allowed: HEAD, GET, POST)',
      });
      const r4 = await http.delete('/crm/ajax/api4/Contact/get');
      expect(r4.status).to.equal(405);
      expect(r4.body).to.include({ error_code: 'E_BAD_REQUEST', status: 405 });
      const o = await http.options('/crm/ajax/rest');
      expect(o.status).to.equal(204);
      expect(o.headers.allow).to.equal('HEAD, GET, POST');
    });
  });

  describe('limits (configured here: 3 chains, IN lists of 5, depth 12, 3 rows per read)', () => {
    it('refuses more chained calls than limits.chainedCalls, on APIv3 and APIv4', async () => {
      const chains: Record<string, object> = {};
      for (let i = 0; i < 4; i++) chains[`api.Email.get.${i}`] = {};
      const r3 = await v3('/crm/extern/rest.php', { id: admin.contactId, ...chains });
      expect(r3.body).to.include({ is_error: 1, error_code: 'limit exceeded', limit: 'chainedCalls', max: 3 });
      const chain: Record<string, unknown> = {};
      for (let i = 0; i < 4; i++) chain[`c${i}`] = ['Email', 'get', {}];
      const r4 = await v4(admin.key, 'Contact', 'get', { chain }).set('X-Requested-With', 'XMLHttpRequest');
      expect(r4.status).to.equal(400);
      expect(r4.body.error_code).to.equal('E_LIMIT_EXCEEDED');
      expect(r4.body.error_message).to.equal('4 chained calls in one call; at most 3 (limits.chainedCalls)');
      const ok = await v3('/crm/extern/rest.php', { id: admin.contactId, 'api.Email.get': {} });
      expect(ok.body.is_error).to.equal(0);
    });

    it('refuses an IN list longer than limits.inList; accepts one at the limit', async () => {
      const r = await v4(admin.key, 'Contact', 'get', { where: [['id', 'IN', [1, 2, 3, 4, 5, 6]]] });
      expect(r.status).to.equal(400);
      expect(r.body).to.include({
        error_code: 'E_LIMIT_EXCEEDED',
        error_message: '6 values in one IN list; at most 5 (limits.inList)',
      });
      expect((await v4(admin.key, 'Contact', 'get', { where: [['id', 'IN', [1, 2, 3, 4, 5]]] })).status).to.equal(200);
      const r3 = await v3('/crm/extern/rest.php', { id: { IN: [1, 2, 3, 4, 5, 6] } });
      expect(r3.body).to.include({ is_error: 1, limit: 'inList' });
    });

    it('refuses params nested deeper than limits.nestingDepth (5,000 levels included), without a stack overflow', async () => {
      const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
      const r3 = await http
        .post('/crm/extern/rest.php')
        .type('form')
        .send({ entity: 'Contact', action: 'get', json: deep(5000), key: SITE_KEY, api_key: admin.key });
      expect(r3.body).to.include({ is_error: 1, limit: 'nestingDepth' });
      const r4 = await http
        .post('/crm/ajax/api4/Contact/get')
        .set('X-Crm-Auth', `Bearer ${admin.key}`)
        .set('Content-Type', 'application/json')
        .send(deep(5000));
      expect(r4.status).to.equal(400);
      expect(r4.body.error_code).to.equal('E_LIMIT_EXCEEDED');
    });

    it('refuses a read matching more than limits.rowsPerRead rows to a non-administrator; pages within it pass', async () => {
      const refused = await v4(reader.key, 'Contact', 'get', { select: ['id'] });
      expect(refused.status).to.equal(400);
      expect(refused.body.error_message).to.match(/^More than 3 rows match/);
      const page = await v4(reader.key, 'Contact', 'get', { select: ['id'], limit: 3 });
      expect(page.body.values).to.have.length(3);
      const r3 = await http.post('/crm/extern/rest.php').type('form').send({
        entity: 'Contact',
        action: 'get',
        json: '{"options":{"limit":0}}',
        key: SITE_KEY,
        api_key: reader.key,
      });
      expect(r3.body).to.include({ is_error: 1, limit: 'rowsPerRead' });
      // Administrators are not bound by it.
      expect((await v4(admin.key, 'Contact', 'get', { select: ['id'] })).body.values.length).to.be.greaterThan(3);
    });

    it('maps a statement timeout (57014) to E_LIMIT_EXCEEDED', () => {
      const e = dbError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
      expect(e?.code).to.equal('E_LIMIT_EXCEEDED');
      expect(e?.message).to.equal('The query took too long and was stopped (limits.statementTimeoutMs)');
    });
  });

  describe('NUL bytes and out-of-range numbers in credentials', () => {
    it('a NUL in the login username is a refused login, not a 500', async () => {
      const r = await http.post('/crm/login').type('form').send({ username: 'bo\u0000ss', password: PASSWORD });
      expect(r.status).to.equal(401);
      expect(r.text).to.contain('Invalid username or password.');
    });

    it('a NUL in the OAuth state: start answers an invalid state (400); return a 4xx OAuth error page', async () => {
      const start = await http.get('/crm/oauth-client/start?state=CC_a%00b');
      expect(start.status).to.equal(400);
      expect(start.text).to.contain('invalid or expired state');
      // The return route asks for its permission first (an anonymous browser here: 401), never a 500.
      const back = await http.get('/crm/oauth-client/return?state=CC_a%00b&code=x');
      expect(back.status).to.be.within(400, 499);
      expect(back.text).to.contain('<h1>OAuth Error</h1>');
    });

    it('a JWT whose subject is beyond the integer range is refused as malformed (401)', async () => {
      const keyring = booted.kernel.container.resolve<Keyring>('keyring');
      const good = await issueJwt(keyring, admin.contactId, 60);
      const { SignJWT } = await import('jose');
      const key = keyring.currentSigningKey;
      const big = await new SignJWT({ scope: 'authx' })
        .setProtectedHeader({ alg: 'HS256', kid: key.kid })
        .setSubject('cid:2147483648')
        .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
        .sign(key.secret);
      const refused = await http.get('/crm/authx/id').set('X-Crm-Auth', `Bearer ${big}`);
      expect(refused.status).to.equal(401);
      expect(refused.text).to.equal('HTTP 401 Malformed JWT. Must specify the contact ID.');
      expect((await http.get('/crm/authx/id').set('X-Crm-Auth', `Bearer ${good}`)).body.contact_id).to.equal(
        admin.contactId,
      );
    });
  });

  it('cuts long values in log lines (no SQL text with all its values)', async () => {
    booted.kernel.log.info({ sql: `select ${'1,'.repeat(10000)}1` }, 'x'.repeat(10000));
    const line = booted.logs[booted.logs.length - 1];
    expect(line.length).to.be.lessThan(2 * 4096 + 200);
    expect(line).to.match(/\[cut: 2000\d characters\]/);
  });
});
