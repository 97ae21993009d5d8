import { expect } from 'chai';
import { issueJwt } from '../../../plugins/users';
import { bootAuth, logsHold, PASSWORD, type AuthKernel } from '../../fixtures/auth';

const AJAX = '/crm/ajax/rest';

/** `name=value` of the session cookie in a response, and its attributes. */
function sessionCookie(res: {
  headers: Record<string, unknown>;
}): { pair: string; value: string; attrs: string } | undefined {
  const all = ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []);
  const line = all.find((c) => c.startsWith('crm_session='));
  if (!line) return undefined;
  const [pair, ...attrs] = line.split(';');
  return { pair, value: pair.slice('crm_session='.length), attrs: attrs.join(';').toLowerCase() };
}

describe('auth-session and AuthX login/logout', () => {
  let k: AuthKernel;
  const secrets: string[] = [];
  before(async () => {
    k = await bootAuth({ server: { trustProxy: true } });
  });
  after(async () => {
    expect(logsHold(k, secrets)).to.deep.equal([]);
    await k.t.close();
  });
  const jwt = async (contactId: number) => {
    const t = await issueJwt(k.t.kernel.container.cradle.keyring, contactId, 300);
    secrets.push(t);
    return t;
  };
  const login = async (username: string, password: string, cookie?: string) => {
    const r = k.req().post('/crm/login').type('form');
    if (cookie) r.set('Cookie', cookie);
    return r.send({ username, password, destination: '/crm/authx/id' });
  };

  describe('login page', () => {
    it('serves a form', async () => {
      const res = await k.req().get('/crm/login');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/html/);
      expect(res.text).to.include('name="username"').and.include('type="password"');
    });
    it('refuses a wrong password, an unknown user and a disabled user alike, setting no cookie', async () => {
      for (const [u, p] of [
        ['bob', 'wrong password'],
        ['nobody', PASSWORD],
        ['carol', PASSWORD],
      ]) {
        const res = await login(u, p);
        expect(res.status).to.equal(401);
        expect(res.text).to.include('Invalid username or password.');
        expect(sessionCookie(res)).to.equal(undefined);
      }
    });
    it('logs in: 303 to the destination, a HttpOnly SameSite=Lax cookie, not Secure over HTTP', async () => {
      const res = await login('bob', PASSWORD);
      expect(res.status).to.equal(303);
      expect(res.headers.location).to.equal('/crm/authx/id');
      const cookie = sessionCookie(res)!;
      expect(cookie.attrs).to.include('httponly').and.include('samesite=lax').and.include('path=/');
      expect(cookie.attrs).to.not.include('secure');
      secrets.push(cookie.value);
      const who = await k.req().get(AJAX).set('Cookie', cookie.pair);
      expect(who.body).to.include({
        contactId: k.cast.bob.contactId,
        userId: k.cast.bob.userId,
        via: 'session',
        flow: 'session',
      });
      expect(who.body.permissions).to.include('access CRM');
    });
    it('marks the cookie Secure behind HTTPS', async () => {
      const res = await k
        .req()
        .post('/crm/login')
        .set('X-Forwarded-Proto', 'https')
        .type('form')
        .send({ username: 'bob', password: PASSWORD });
      const c = sessionCookie(res)!;
      secrets.push(c.value);
      expect(c.attrs).to.include('secure');
    });
    it('never redirects off-site', async () => {
      const res = await k
        .req()
        .post('/crm/login')
        .type('form')
        .send({ username: 'bob', password: PASSWORD, destination: '//evil.example/x' });
      secrets.push(sessionCookie(res)!.value);
      expect(res.headers.location).to.equal('/crm/authx/id');
    });
    it('refuses a cross-site form post', async () => {
      const res = await k
        .req()
        .post('/crm/login')
        .set('Origin', 'https://evil.example')
        .type('form')
        .send({ username: 'bob', password: PASSWORD });
      expect(res.status).to.equal(403);
      expect(sessionCookie(res)).to.equal(undefined);
    });
  });

  describe('session fixation', () => {
    it('a planted cookie is replaced by a new id at login', async () => {
      const res = await login('bob', PASSWORD, 'crm_session=planted-id.planted-signature');
      const c = sessionCookie(res)!;
      secrets.push(c.value);
      expect(c.value).to.not.match(/^planted-id/);
    });
    it('logging in again gives a new id and ends the old session', async () => {
      const first = sessionCookie(await login('bob', PASSWORD))!;
      const second = sessionCookie(await login('bob', PASSWORD, first.pair))!;
      secrets.push(first.value, second.value);
      expect(second.value.split('.')[0]).to.not.equal(first.value.split('.')[0]);
      expect((await k.req().get(AJAX).set('Cookie', first.pair)).body).to.include({ contactId: null });
      expect((await k.req().get(AJAX).set('Cookie', second.pair)).body).to.include({ contactId: k.cast.bob.contactId });
    });
  });

  describe('cookie checks', () => {
    it('a tampered or unsigned cookie is anonymous, not an error', async () => {
      const c = sessionCookie(await login('bob', PASSWORD))!;
      secrets.push(c.value);
      const [id, sig] = c.value.split('.');
      for (const bad of [`${id}.${sig.slice(0, -2)}xx`, id, `${id}.${sig}.extra`, 'x'.repeat(500)]) {
        const res = await k.req().get(AJAX).set('Cookie', `crm_session=${bad}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ contactId: null, via: 'anonymous' });
      }
    });
    it('routes that do not accept session ignore the cookie', async () => {
      const c = sessionCookie(await login('bob', PASSWORD))!;
      secrets.push(c.value);
      const res = await k.req().get('/wp-json/crm/v3/rest').set('Cookie', c.pair);
      expect(res.status).to.equal(401);
    });
    it('disabling the user ends the session', async () => {
      await k.identity.createUser(k.t.kernel.db, { username: 'dave', password: PASSWORD });
      const c = sessionCookie(await login('dave', PASSWORD))!;
      secrets.push(c.value);
      expect((await k.req().get(AJAX).set('Cookie', c.pair)).body.userId).to.be.a('number');
      await k.identity.setActive(k.t.kernel.db, 'dave', false);
      expect((await k.req().get(AJAX).set('Cookie', c.pair)).body).to.include({ contactId: null });
    });
    it('an explicit AuthX credential wins over the cookie', async () => {
      const c = sessionCookie(await login('bob', PASSWORD))!;
      secrets.push(c.value);
      const res = await k.req().get(AJAX).set('Cookie', c.pair).set('X-Crm-Auth', `Bearer ${k.cast.admin.key}`);
      expect(res.body).to.include({ contactId: k.cast.admin.contactId, flow: 'xheader' });
    });
  });

  describe('logout', () => {
    it('POST /crm/logout ends the session and clears the cookie', async () => {
      const c = sessionCookie(await login('bob', PASSWORD))!;
      secrets.push(c.value);
      const res = await k.req().post('/crm/logout').set('Cookie', c.pair);
      expect(res.status).to.equal(303);
      expect(sessionCookie(res)!.value).to.equal('');
      expect((await k.req().get(AJAX).set('Cookie', c.pair)).body).to.include({ contactId: null });
    });
  });

  describe('AuthX login flow (/crm/authx/login)', () => {
    it('logs in with a JWT: who-am-I JSON and a session cookie', async () => {
      const res = await k
        .req()
        .post('/crm/authx/login')
        .type('form')
        .send({ _authx: `Bearer ${await jwt(k.cast.alice.contactId)}` });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        contact_id: k.cast.alice.contactId,
        user_id: k.cast.alice.userId,
        flow: 'login',
        cred: 'jwt',
      });
      const cookie = sessionCookie(res)!;
      secrets.push(cookie.value);
      expect(cookie.attrs).to.include('httponly').and.include('samesite=lax');
      const id = await k.req().get('/crm/authx/id').set('Cookie', cookie.pair);
      expect(id.body).to.deep.equal({
        contact_id: k.cast.alice.contactId,
        user_id: k.cast.alice.userId,
        flow: 'login',
        cred: 'jwt',
      });
      const ajax = await k.req().get(AJAX).set('Cookie', cookie.pair);
      expect(ajax.body).to.include({ flow: 'session', contactId: k.cast.alice.contactId });
    });
    it('refuses an API key (login accepts only JWTs by default)', async () => {
      const res = await k
        .req()
        .post('/crm/authx/login')
        .type('form')
        .send({ _authx: `Bearer ${k.cast.bob.key}` });
      expect(res.status).to.equal(401);
      expect(res.text).to.equal(
        'HTTP 401 Authentication type "api_key" with flow "login" is not allowed for this principal.',
      );
      expect(sessionCookie(res)).to.equal(undefined);
    });
    it('refuses without a credential, or with a header credential', async () => {
      const none = await k.req().post('/crm/authx/login').type('form').send({});
      expect(none.status).to.equal(401);
      expect(none.text).to.equal('HTTP 401 Invalid credential');
      const header = await k
        .req()
        .post('/crm/authx/login')
        .set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`)
        .type('form')
        .send({});
      expect(header.status).to.equal(401);
      expect(sessionCookie(header)).to.equal(undefined);
    });
    it('refuses when a session of another contact is active, and rotates the id for the same contact', async () => {
      const cookie = sessionCookie(await login('bob', PASSWORD))!;
      secrets.push(cookie.value);
      const other = await k
        .req()
        .post('/crm/authx/login')
        .set('Cookie', cookie.pair)
        .type('form')
        .send({ _authx: `Bearer ${await jwt(k.cast.alice.contactId)}` });
      expect(other.status).to.equal(401);
      expect(other.text).to.equal('HTTP 401 Cannot login. A mismatched session is already active.');
      const same = await k
        .req()
        .post('/crm/authx/login')
        .set('Cookie', cookie.pair)
        .type('form')
        .send({ _authx: `Bearer ${await jwt(k.cast.bob.contactId)}` });
      expect(same.status).to.equal(200);
      const fresh = sessionCookie(same)!;
      secrets.push(fresh.value);
      expect(fresh.value).to.not.equal(cookie.value);
      expect((await k.req().get(AJAX).set('Cookie', cookie.pair)).body).to.include({ contactId: null });
    });
    it('/crm/authx/logout ends the session and answers []', async () => {
      const c = sessionCookie(
        await k
          .req()
          .post('/crm/authx/login')
          .type('form')
          .send({ _authx: `Bearer ${await jwt(k.cast.bob.contactId)}` }),
      )!;
      secrets.push(c.value);
      const res = await k.req().post('/crm/authx/logout').set('Cookie', c.pair);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal([]);
      expect((await k.req().get('/crm/authx/id').set('Cookie', c.pair)).body.contact_id).to.equal(null);
    });
  });
});
