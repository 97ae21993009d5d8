import { expect } from 'chai';
import { SignJWT, base64url } from 'jose';
import { issueJwt } from '../../../plugins/users';
import {
  basic,
  bootAuth,
  expect401,
  logsHold,
  PASSWORD,
  SIGN_K1,
  SIGN_K2,
  SITE_KEY,
  type AuthKernel,
} from '../../fixtures/auth';

const AJAX = '/crm/ajax/rest';

const sign = (secret: string, kid: string, claims: Record<string, unknown>, alg = 'HS256') =>
  new SignJWT(claims).setProtectedHeader({ alg, kid }).sign(new TextEncoder().encode(secret));

describe('auth-authx: flows × credentials (defaults: jwt + api_key, guards site_key/perm)', () => {
  let k: AuthKernel;
  const tokens: string[] = [];
  before(async () => {
    k = await bootAuth();
  });
  after(async () => {
    // Nothing secret ever reaches the logs: passwords, keys, site key, signing keys, tokens.
    expect(logsHold(k, tokens)).to.deep.equal([]);
    await k.t.close();
  });
  const jwt = async (contactId: number, ttl = 300) => {
    const tok = await issueJwt(k.t.kernel.container.cradle.keyring, contactId, ttl);
    tokens.push(tok);
    return tok;
  };

  // The three ways to present one credential.
  const flows = {
    header: (cred: string) => k.req().get(AJAX).set('Authorization', cred),
    xheader: (cred: string) => k.req().get(AJAX).set('X-Crm-Auth', cred),
    param: (cred: string) => k.req().post(AJAX).type('form').send({ _authx: cred }),
  };

  for (const [flow, send] of Object.entries(flows)) {
    describe(`flow ${flow}`, () => {
      it('accepts an API key of a user holding "authenticate with api key"', async () => {
        const res = await send(`Bearer ${k.cast.bob.key}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({
          contactId: k.cast.bob.contactId,
          userId: k.cast.bob.userId,
          via: 'api_key',
          flow,
        });
        expect(res.body.permissions).to.include.members(['access CRM', 'authenticate with api key', 'view my contact']);
        expect(res.headers['set-cookie']).to.equal(undefined);
      });
      it('accepts a JWT (guards do not apply to JWTs)', async () => {
        const res = await send(`Bearer ${await jwt(k.cast.alice.contactId)}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({
          contactId: k.cast.alice.contactId,
          userId: k.cast.alice.userId,
          via: 'jwt',
          flow,
        });
        expect(res.headers['set-cookie']).to.equal(undefined);
      });
      it('refuses an unknown API key', async () => {
        expect401(await send('Bearer crm_notakeyatall'), 'Invalid credential');
      });
      it('refuses a credential without a scheme, and a lower-case scheme', async () => {
        expect401(await send(k.cast.bob.key), 'Invalid credential');
        expect401(await send(`bearer ${k.cast.bob.key}`), 'Invalid credential');
      });
      it('refuses an API key when no guard holds (no site key, no permission)', async () => {
        expect401(
          await send(`Bearer ${k.cast.alice.key}`),
          'Login not permitted. Must satisfy guard (site_key, perm).',
        );
      });
      it('refuses a disabled user', async () => {
        expect401(await send(`Bearer ${k.cast.carol.key}`), 'Cannot login. User is blocked.');
      });
      it('refuses an expired JWT', async () => {
        const tok = await sign(SIGN_K2, 'k2', {
          sub: `cid:${k.cast.bob.contactId}`,
          scope: 'authx',
          exp: Math.floor(Date.now() / 1000) - 5,
        });
        tokens.push(tok);
        expect401(await send(`Bearer ${tok}`), 'Expired token');
      });
    });
  }

  describe('passwords (off by default)', () => {
    it('ignores a Basic Authorization header: the caller stays anonymous', async () => {
      const res = await k.req().get(AJAX).set('Authorization', basic('bob', PASSWORD));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ contactId: null, via: 'anonymous' });
    });
    it('refuses Basic over X-Crm-Auth and _authx as a type not allowed for the flow', async () => {
      expect401(
        await flows.xheader(basic('bob', PASSWORD)),
        'Authentication type "pass" with flow "xheader" is not allowed for this principal.',
      );
      expect401(
        await flows.param(basic('bob', PASSWORD)),
        'Authentication type "pass" with flow "param" is not allowed for this principal.',
      );
    });
    it('refuses a wrong password as an invalid credential (no hint which part was wrong)', async () => {
      expect401(await flows.xheader(basic('bob', 'wrong password')), 'Invalid credential');
      expect401(await flows.xheader(basic('nobody', PASSWORD)), 'Invalid credential');
    });
  });

  describe('param flow details', () => {
    it('reads _authx from the query on GET, with + for a space', async () => {
      const res = await k.req().get(`${AJAX}?_authx=Bearer+${k.cast.bob.key}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ contactId: k.cast.bob.contactId, flow: 'param' });
    });
    it('does not read _authx from the query on POST (POST reads the body)', async () => {
      const res = await k.req().post(`${AJAX}?_authx=Bearer+${k.cast.bob.key}`).type('form').send({});
      expect(res.body).to.include({ contactId: null, via: 'anonymous' });
    });
    it('detects X-Crm-Auth before Authorization before _authx', async () => {
      const res = await k
        .req()
        .post(AJAX)
        .set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`)
        .set('Authorization', 'Bearer nonsense')
        .type('form')
        .send({ _authx: 'Bearer nonsense' });
      expect(res.body).to.include({ contactId: k.cast.bob.contactId, flow: 'xheader' });
      const res2 = await k
        .req()
        .post(AJAX)
        .set('Authorization', `Bearer ${k.cast.admin.key}`)
        .type('form')
        .send({ _authx: 'Bearer nonsense' });
      expect(res2.body).to.include({ contactId: k.cast.admin.contactId, flow: 'header' });
    });
  });

  describe('guards', () => {
    it('passes the site key guard with X-Crm-Key', async () => {
      const res = await flows.xheader(`Bearer ${k.cast.alice.key}`).set('X-Crm-Key', SITE_KEY);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ contactId: k.cast.alice.contactId, via: 'api_key' });
    });
    it('passes the site key guard with _authxSiteKey', async () => {
      const res = await k
        .req()
        .post(AJAX)
        .type('form')
        .send({ _authx: `Bearer ${k.cast.alice.key}`, _authxSiteKey: SITE_KEY });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ contactId: k.cast.alice.contactId, flow: 'param' });
    });
    it('refuses a wrong site key', async () => {
      expect401(
        await flows.xheader(`Bearer ${k.cast.alice.key}`).set('X-Crm-Key', 'not-the-site-key'),
        'Login not permitted. Must satisfy guard (site_key, perm).',
      );
    });
  });

  describe('JWT', () => {
    const sub = () => `cid:${k.cast.bob.contactId}`;
    const exp = () => Math.floor(Date.now() / 1000) + 300;
    it('accepts a token signed with an older key that is still configured (rotation)', async () => {
      const tok = await sign(SIGN_K1, 'k1', { sub: sub(), scope: 'authx', exp: exp() });
      tokens.push(tok);
      expect((await flows.xheader(`Bearer ${tok}`)).body).to.include({ contactId: k.cast.bob.contactId, via: 'jwt' });
    });
    it('refuses a forged signature, an unknown kid, and a missing kid', async () => {
      const forged = await sign('forged-secret-forged-secret-forged-secret', 'k2', {
        sub: sub(),
        scope: 'authx',
        exp: exp(),
      });
      const wrongKid = await sign(SIGN_K2, 'k9', { sub: sub(), scope: 'authx', exp: exp() });
      const noKid = await new SignJWT({ sub: sub(), scope: 'authx', exp: exp() })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SIGN_K2));
      for (const tok of [forged, wrongKid, noKid])
        expect401(await flows.xheader(`Bearer ${tok}`), 'Invalid credential');
    });
    it('refuses alg none and other algorithms, even with the right secret', async () => {
      const enc = (o: object) => base64url.encode(JSON.stringify(o));
      const none = `${enc({ alg: 'none', kid: 'k2' })}.${enc({ sub: sub(), scope: 'authx', exp: exp() })}.`;
      const hs512 = await sign(SIGN_K2, 'k2', { sub: sub(), scope: 'authx', exp: exp() }, 'HS512');
      const hs384 = await sign(SIGN_K2, 'k2', { sub: sub(), scope: 'authx', exp: exp() }, 'HS384');
      for (const tok of [none, hs512, hs384]) expect401(await flows.xheader(`Bearer ${tok}`), 'Invalid credential');
    });
    it('refuses a token without exp (tokens must expire)', async () => {
      const tok = await sign(SIGN_K2, 'k2', { sub: sub(), scope: 'authx' });
      expect401(await flows.xheader(`Bearer ${tok}`), 'Invalid credential');
    });
    it('ignores a token without the authx scope', async () => {
      const tok = await sign(SIGN_K2, 'k2', { sub: sub(), scope: 'other things', exp: exp() });
      expect401(await flows.xheader(`Bearer ${tok}`), 'Invalid credential');
    });
    it('refuses a token whose sub is not cid:<id>', async () => {
      const tok = await sign(SIGN_K2, 'k2', { sub: 'user:1', scope: 'authx', exp: exp() });
      expect401(await flows.xheader(`Bearer ${tok}`), 'Malformed JWT. Must specify the contact ID.');
    });
    it('refuses a token for a contact that does not exist', async () => {
      const tok = await sign(SIGN_K2, 'k2', { sub: 'cid:424242', scope: 'authx', exp: exp() });
      expect401(await flows.xheader(`Bearer ${tok}`), 'Contact ID 424242 is invalid');
    });
    it('refuses a token whose last character was changed in bits base64url leaves unused (no malleable tokens)', async () => {
      const tok = await sign(SIGN_K2, 'k2', { sub: sub(), scope: 'authx', exp: exp() });
      expect((await flows.xheader(`Bearer ${tok}`)).body).to.include({ via: 'jwt' });
      // An HS256 signature is 32 bytes, 43 characters: the last one carries 4 bits and 2 unused ones.
      const last = tok.at(-1)!;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const sibling = alphabet[alphabet.indexOf(last) ^ 1];
      const twin = tok.slice(0, -1) + sibling;
      expect(Buffer.from(twin.split('.')[2], 'base64url')).to.deep.equal(Buffer.from(tok.split('.')[2], 'base64url'));
      expect401(await flows.xheader(`Bearer ${twin}`), 'Invalid credential');
    });
    it('treats garbage shaped like a JWT as an invalid credential, never a 500', async () => {
      for (const tok of ['a.b.c', 'eyJhbGciOiJIUzI1NiJ9.e30.', '...', 'eyJ%%%.x.y'])
        expect401(await flows.xheader(`Bearer ${tok}`), 'Invalid credential');
    });
  });

  describe('malformed input is a refusal, never a 500', () => {
    it('Authorization without a value, with an unknown scheme, with bad base64', async () => {
      expect401(await flows.header('Bearer'), 'Invalid credential');
      expect401(await flows.header('Token abc'), 'Invalid credential');
      expect401(await flows.xheader('Basic %%%not-base64%%%'), 'Invalid credential');
      expect401(await flows.xheader('Basic ' + Buffer.from('no-colon').toString('base64')), 'Invalid credential');
      expect401(await flows.xheader(''), 'Invalid credential');
    });
    it('an _authx sent twice (an array) is refused', async () => {
      expect401(await k.req().get(`${AJAX}?_authx=Bearer+a&_authx=Bearer+b`), 'Invalid credential');
    });
  });

  describe('/crm/authx/id', () => {
    it('answers nulls for an anonymous caller', async () => {
      const res = await k.req().get('/crm/authx/id');
      expect(res.body).to.deep.equal({ contact_id: null, user_id: null, flow: null, cred: null });
    });
    it('names the contact, user, flow and credential', async () => {
      const res = await k.req().get('/crm/authx/id').set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`);
      expect(res.body).to.deep.equal({
        contact_id: k.cast.bob.contactId,
        user_id: k.cast.bob.userId,
        flow: 'xheader',
        cred: 'api_key',
      });
    });
    it('answers the AuthX 401 for a bad credential', async () => {
      expect401(await k.req().get('/crm/authx/id').set('Authorization', 'Bearer nope'), 'Invalid credential');
    });
  });

  describe('user link modes', () => {
    it('optional (default): a key of a contact without a user authenticates the contact only', async () => {
      const res = await flows.xheader(`Bearer ${k.cast.orphan.key}`).set('X-Crm-Key', SITE_KEY);
      expect(res.body).to.include({ contactId: k.cast.orphan.contactId, userId: null, via: 'api_key' });
      expect(res.body.permissions).to.deep.equal([]);
    });
  });
});
