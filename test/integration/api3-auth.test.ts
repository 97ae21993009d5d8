/**
 * APIv3 over HTTP with the real authentication plugins: each method on each end-point of the spec's
 * compatibility table, accepted and refused; contact ACLs through get, getcount and chains; the
 * permission map's denials. The default plugin set, as `npm start` runs it.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { bootTestKernel, type TestKernel } from '../../host/testing';
import { issueJwt } from '../../plugins/users';
import type { Keyring } from '../../plugins/users';
import type { IdentityStore } from '../../plugins/users';

const SITE_KEY = 'integration-site-key-42';
const PASSWORD = 'a long enough password';

describe('integration: APIv3 end-points × authentication × permissions', function () {
  this.timeout(60000);
  let testKernel: TestKernel;
  let http: supertest.Agent;
  const who: Record<string, { contactId: number; key: string }> = {};
  let jwt: string;

  before(async () => {
    testKernel = await bootTestKernel({ config: { pluginConfig: { users: { siteKey: SITE_KEY } } } });
    http = await testKernel.http();
    const identity = testKernel.kernel.container.resolve<IdentityStore>('identity');
    const db = testKernel.kernel.db;
    await identity.grantPermissions(db, 'staff', [
      'access CRM',
      'view all contacts',
      'edit all contacts',
      'add contacts',
      'authenticate with api key',
      'authenticate with password',
    ]);
    await identity.grantPermissions(db, 'self', [
      'access CRM',
      'view my contact',
      'edit my contact',
      'authenticate with api key',
    ]);
    for (const [name, roles] of [
      ['staff', ['staff']],
      ['selfie', ['self']],
      ['nobody', []],
    ] as const) {
      const user = await identity.createUser(db, { username: name, password: PASSWORD, roles: [...roles] });
      who[name] = { contactId: user.contact_id, key: (await identity.createApiKey(db, user.contact_id)).key };
    }
    jwt = await issueJwt(testKernel.kernel.container.resolve<Keyring>('keyring'), who.staff.contactId, 300);
    // Some data: two more contacts with an email each, plus one on the self user's contact.
    const staffCall = (entity: string, action: string, json: object) =>
      http
        .post('/crm/ajax/rest')
        .set('X-Crm-Auth', `Bearer ${who.staff.key}`)
        .type('form')
        .send({ entity, action, json: JSON.stringify(json) });
    for (const name of ['Ann', 'Bob']) {
      const created = await staffCall('Contact', 'create', {
        contact_type: 'Individual',
        first_name: name,
        last_name: 'Example',
        email: `${name.toLowerCase()}@example.org`,
      });
      expect(created.body.is_error, JSON.stringify(created.body)).to.equal(0);
    }
    expect(
      (await staffCall('Email', 'create', { contact_id: who.selfie.contactId, email: 'me@example.org' })).body.is_error,
    ).to.equal(0);
  });
  after(() => testKernel.close());

  const getContacts = {
    entity: 'Contact',
    action: 'get',
    json: JSON.stringify({ sequential: 1, return: ['id', 'display_name'] }),
  };

  describe('/crm/ajax/rest', () => {
    it('accepts an API key in X-Crm-Auth (xheader: no X-Requested-With needed)', async () => {
      const r = await http.get('/crm/ajax/rest').query(getContacts).set('X-Crm-Auth', `Bearer ${who.staff.key}`);
      expect(r.body.is_error).to.equal(0);
      expect(r.body.count).to.be.greaterThan(2);
    });

    it('accepts Authorization: Bearer <JWT> with X-Requested-With, and refuses it without (CSRF guard)', async () => {
      const ok = await http
        .get('/crm/ajax/rest')
        .query(getContacts)
        .set('Authorization', `Bearer ${jwt}`)
        .set('X-Requested-With', 'XMLHttpRequest');
      expect(ok.body.is_error).to.equal(0);
      const csrf = await http.get('/crm/ajax/rest').query(getContacts).set('Authorization', `Bearer ${jwt}`);
      expect(csrf.status).to.equal(200);
      expect(csrf.body).to.include({ is_error: 1, reason: 'CSRF suspected' });
    });

    it('accepts the _authx parameter (param flow, + for space)', async () => {
      const r = await http
        .post('/crm/ajax/rest')
        .type('form')
        .send(`entity=Contact&action=get&json=${encodeURIComponent(getContacts.json)}&_authx=Bearer+${who.staff.key}`);
      expect(r.body.is_error).to.equal(0);
    });

    it('refuses a bad AuthX credential with HTTP 401 text', async () => {
      const r = await http.get('/crm/ajax/rest').query(getContacts).set('X-Crm-Auth', 'Bearer not-a-key');
      expect(r.status).to.equal(401);
      expect(r.type).to.equal('text/plain');
      expect(r.text).to.equal('HTTP 401 Invalid credential');
    });

    it('accepts key + api_key (legacyrest), and answers a wrong pair with the FATAL JSON at HTTP 200', async () => {
      const ok = await http.get('/crm/ajax/rest').query({ ...getContacts, key: SITE_KEY, api_key: who.staff.key });
      expect(ok.body.is_error).to.equal(0);
      const bad = await http
        .get('/crm/ajax/rest')
        .query({ ...getContacts, key: 'wrong-site-key', api_key: who.staff.key });
      expect(bad.status).to.equal(200);
      expect(JSON.parse(bad.text))
        .to.include({ is_error: 1 })
        .and.have.property('error_message')
        .that.matches(/^FATAL: /);
    });

    it('accepts a session cookie from the login page, with X-Requested-With only', async () => {
      const agent = await testKernel.http();
      const login = await agent.post('/crm/login').type('form').send({ username: 'staff', password: PASSWORD });
      expect(login.status).to.equal(303);
      const ok = await agent.get('/crm/ajax/rest').query(getContacts).set('X-Requested-With', 'XMLHttpRequest');
      expect(ok.body.is_error).to.equal(0);
      const csrf = await agent.get('/crm/ajax/rest').query(getContacts);
      expect(csrf.body.reason).to.equal('CSRF suspected');
    });

    it('refuses an anonymous caller (no menu permission) with 403', async () => {
      const r = await http.get('/crm/ajax/rest').query(getContacts).set('X-Requested-With', 'XMLHttpRequest');
      expect(r.status).to.equal(403);
      expect(r.body).to.include({ is_error: 1, error_code: 'unauthorized' });
    });
  });

  describe('extern/rest.php (legacy keys only)', () => {
    it('accepts key + api_key', async () => {
      const r = await http
        .post('/crm/extern/rest.php')
        .type('form')
        .send({ ...getContacts, key: SITE_KEY, api_key: who.staff.key });
      expect(r.body.is_error).to.equal(0);
    });

    it('ignores AuthX headers and answers a missing or wrong site key at HTTP 200', async () => {
      const noKeys = await http
        .post('/crm/extern/rest.php')
        .type('form')
        .set('X-Crm-Auth', `Bearer ${who.staff.key}`)
        .send(getContacts);
      expect(noKeys.status).to.equal(200);
      expect(noKeys.body).to.deep.equal({ error_message: 'Failed to authenticate key', is_error: 1 });
      const wrong = await http
        .post('/crm/extern/rest.php')
        .type('form')
        .send({ ...getContacts, key: 'nope-nope-nope', api_key: who.staff.key });
      expect(wrong.body).to.deep.equal({ error_message: 'Failed to authenticate key', is_error: 1 });
    });

    it('answers in XML when json is absent', async () => {
      const r = await http
        .post('/crm/extern/rest.php')
        .type('form')
        .send({ entity: 'Contact', action: 'getcount', key: SITE_KEY, api_key: who.staff.key });
      expect(r.type).to.equal('text/xml');
      expect(r.text).to.match(/<result>\d+<\/result>/);
    });
  });

  describe('/wp-json/crm/v3/rest (legacy keys only)', () => {
    it('accepts key + api_key and returns values as a list', async () => {
      const r = await http.get('/wp-json/crm/v3/rest').query({ ...getContacts, key: SITE_KEY, api_key: who.staff.key });
      expect(r.body.is_error).to.equal(0);
      expect(r.body.values).to.be.an('array');
    });

    it('refuses a bad api_key with the WordPress 401 error', async () => {
      const r = await http.get('/wp-json/crm/v3/rest').query({ ...getContacts, key: SITE_KEY, api_key: 'bogus' });
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.include({ code: 'crm_rest_api_error' });
    });
  });

  describe('contact ACLs (view my contact)', () => {
    const call = (action: string, json: object, entity = 'Contact') =>
      http
        .post('/crm/ajax/rest')
        .set('X-Crm-Auth', `Bearer ${who.selfie.key}`)
        .type('form')
        .send({ entity, action, json: JSON.stringify(json) });

    it('get and getcount see only the caller’s own contact', async () => {
      const got = await call('get', { sequential: 1, return: ['id'] });
      expect(got.body.values.map((v: { id: string }) => Number(v.id))).to.deep.equal([who.selfie.contactId]);
      expect((await call('getcount', {})).body.result).to.equal(1);
    });

    it('child records and chains are limited the same way', async () => {
      const emails = await call('get', { sequential: 1 }, 'Email');
      expect(emails.body.values.map((e: { contact_id: string }) => Number(e.contact_id))).to.deep.equal([
        who.selfie.contactId,
      ]);
      const chained = await call('get', { sequential: 1, return: ['id'], 'api.Email.get': {} });
      expect(chained.body.values).to.have.length(1);
      expect(chained.body.values[0]['api.Email.get'].values.map((e: { email: string }) => e.email)).to.deep.equal([
        'me@example.org',
      ]);
    });

    it('cannot read or edit someone else by id', async () => {
      const others = await http
        .post('/crm/ajax/rest')
        .set('X-Crm-Auth', `Bearer ${who.staff.key}`)
        .type('form')
        .send({
          entity: 'Contact',
          action: 'get',
          json: JSON.stringify({ sequential: 1, first_name: 'Ann', return: ['id'] }),
        });
      const annId = Number(others.body.values[0].id);
      expect((await call('getcount', { id: annId })).body.result).to.equal(0);
      const edit = await call('create', { id: annId, first_name: 'Hacked' });
      expect(edit.body.is_error).to.equal(1);
      expect(edit.body.error_code).to.equal('unauthorized');
    });
  });

  describe('permission map', () => {
    it('refuses Contact.create without add contacts, with the reference message', async () => {
      const r = await http
        .post('/crm/ajax/rest')
        .set('X-Crm-Auth', `Bearer ${who.selfie.key}`)
        .type('form')
        .send({
          entity: 'Contact',
          action: 'create',
          json: JSON.stringify({ contact_type: 'Individual', first_name: 'Nope' }),
        });
      expect(r.body).to.include({ is_error: 1, error_code: 'unauthorized' });
      expect(r.body.error_message).to.equal(
        'API permission check failed for Contact/create call; insufficient permission: require access CRM and add contacts',
      );
    });

    it('refuses System.get (administer CRM) to staff and allows it to nobody else either', async () => {
      const r = await http
        .post('/crm/ajax/rest')
        .set('X-Crm-Auth', `Bearer ${who.staff.key}`)
        .type('form')
        .send({ entity: 'System', action: 'get', json: '{}' });
      expect(r.body.error_message).to.contain('require administer CRM');
    });

    it('a user without authenticate with api key is refused by the perm guard unless the site key is sent', async () => {
      const refused = await http.get('/crm/ajax/rest').query(getContacts).set('X-Crm-Auth', `Bearer ${who.nobody.key}`);
      expect(refused.status).to.equal(401);
      expect(refused.text).to.equal('HTTP 401 Login not permitted. Must satisfy guard (site_key, perm).');
      const withSiteKey = await http
        .get('/crm/ajax/rest')
        .query(getContacts)
        .set('X-Crm-Auth', `Bearer ${who.nobody.key}`)
        .set('X-Crm-Key', SITE_KEY);
      expect(withSiteKey.status).to.equal(403);
    });
  });

  it('never writes a key, password or token to the logs', () => {
    const all = testKernel.logs.join('\n');
    for (const secret of [SITE_KEY, PASSWORD, jwt, ...Object.values(who).map((w) => w.key)])
      expect(all).to.not.contain(secret);
  });
});
