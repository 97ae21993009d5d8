import { expect } from 'chai';
import { issueJwt } from '../../../plugins/users';
import { bootAuth, logsHold, SITE_KEY, type AuthKernel } from '../../fixtures/auth';

describe('auth-legacy-keys: key + api_key per end-point', () => {
  let k: AuthKernel;
  before(async () => {
    k = await bootAuth();
  });
  after(async () => {
    expect(logsHold(k)).to.deep.equal([]);
    await k.t.close();
  });

  describe('crm/ajax/rest (legacyrest flow)', () => {
    const AJAX = '/crm/ajax/rest';
    const fatal = (res: { status: number; headers: Record<string, string>; text: string }, reason: string) => {
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/javascript/);
      expect(res.text).to.equal(JSON.stringify({ error_message: `FATAL: ${reason}`, is_error: 1 }));
      expect(res.headers['set-cookie']).to.equal(undefined);
    };

    it('accepts both keys (POST), grants access AJAX API, flow legacyrest', async () => {
      const res = await k.req().post(AJAX).type('form').send({ key: SITE_KEY, api_key: k.cast.alice.key });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        contactId: k.cast.alice.contactId,
        userId: k.cast.alice.userId,
        via: 'api_key',
        flow: 'legacyrest',
      });
      expect(res.body.permissions).to.include('access AJAX API');
      expect(res.headers['set-cookie']).to.equal(undefined);
    });
    it('accepts both keys in the query (GET)', async () => {
      const res = await k.req().get(AJAX).query({ key: SITE_KEY, api_key: k.cast.bob.key });
      expect(res.body).to.include({ contactId: k.cast.bob.contactId, flow: 'legacyrest' });
    });
    it('abstains when neither key is given (anonymous)', async () => {
      const res = await k.req().get(AJAX);
      expect(res.body).to.include({ contactId: null, via: 'anonymous' });
    });
    it('refuses a missing or wrong api_key', async () => {
      fatal(await k.req().post(AJAX).type('form').send({ key: SITE_KEY }), 'Invalid credential');
      fatal(await k.req().post(AJAX).type('form').send({ key: SITE_KEY, api_key: 'wrong' }), 'Invalid credential');
    });
    it('refuses a missing or wrong site key, even for a user holding "authenticate with api key"', async () => {
      fatal(
        await k.req().post(AJAX).type('form').send({ api_key: k.cast.bob.key }),
        'Login not permitted. Must satisfy guard (site_key).',
      );
      fatal(
        await k.req().post(AJAX).type('form').send({ api_key: k.cast.bob.key, key: 'wrong-site-key' }),
        'Login not permitted. Must satisfy guard (site_key).',
      );
    });
    it('requires both keys for a JWT in api_key too', async () => {
      const tok = await issueJwt(k.t.kernel.container.cradle.keyring, k.cast.bob.contactId, 60);
      k.secrets.push(tok);
      fatal(
        await k.req().post(AJAX).type('form').send({ api_key: tok }),
        'Login not permitted. Must satisfy guard (site_key).',
      );
      const ok = await k.req().post(AJAX).type('form').send({ api_key: tok, key: SITE_KEY });
      expect(ok.body).to.include({ contactId: k.cast.bob.contactId, via: 'jwt', flow: 'legacyrest' });
    });
    it('requires a user (user link require) and refuses a disabled one', async () => {
      fatal(
        await k.req().post(AJAX).type('form').send({ key: SITE_KEY, api_key: k.cast.orphan.key }),
        'Cannot login. No matching user is available.',
      );
      fatal(
        await k.req().post(AJAX).type('form').send({ key: SITE_KEY, api_key: k.cast.carol.key }),
        'Cannot login. User is blocked.',
      );
    });
    it('POST wins over GET', async () => {
      const res = await k
        .req()
        .post(`${AJAX}?api_key=wrong`)
        .type('form')
        .send({ key: SITE_KEY, api_key: k.cast.alice.key });
      expect(res.body).to.include({ contactId: k.cast.alice.contactId });
    });
  });

  describe('extern/rest.php (the binding renders the refusal)', () => {
    const EXTERN = '/crm/extern/rest.php';
    const error = (res: { status: number; body: unknown }, message: string) => {
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ error_message: message, is_error: 1 });
    };
    it('accepts both keys, flow legacy, no AJAX permission', async () => {
      const res = await k.req().get(EXTERN).query({ key: SITE_KEY, api_key: k.cast.alice.key });
      expect(res.body).to.include({
        contactId: k.cast.alice.contactId,
        userId: k.cast.alice.userId,
        via: 'api_key',
        flow: 'legacy',
      });
      expect(res.body.permissions).to.not.include('access AJAX API');
    });
    it('refuses a missing or wrong site key first', async () => {
      error(await k.req().get(EXTERN).query({ api_key: k.cast.alice.key }), 'Failed to authenticate key');
      error(
        await k.req().get(EXTERN).query({ api_key: k.cast.alice.key, key: 'nope-nope' }),
        'Failed to authenticate key',
      );
      error(await k.req().get(EXTERN), 'Failed to authenticate key');
    });
    it('refuses a missing api_key (the literal null counts as missing)', async () => {
      error(await k.req().get(EXTERN).query({ key: SITE_KEY }), "FATAL: mandatory param 'api_key' (user key) missing");
      error(
        await k.req().get(EXTERN).query({ key: SITE_KEY, api_key: 'null' }),
        "FATAL: mandatory param 'api_key' (user key) missing",
      );
    });
    it('refuses an unknown key, a key without a user, and a disabled user the same way', async () => {
      for (const api_key of ['unknown-key', k.cast.orphan.key, k.cast.carol.key]) {
        error(
          await k.req().post(EXTERN).type('form').send({ key: SITE_KEY, api_key }),
          'ERROR: No CMS user associated with given api-key',
        );
      }
    });
  });

  describe('wp-json/crm/v3/rest (WP_Error JSON)', () => {
    const WP = '/wp-json/crm/v3/rest';
    const wpError = (res: { status: number; headers: Record<string, string>; body: unknown }, message: string) => {
      expect(res.status).to.equal(401);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body).to.deep.equal({ code: 'crm_rest_api_error', message, data: { status: 401 } });
    };
    it('accepts both keys with any method', async () => {
      for (const m of ['get', 'post', 'put', 'delete'] as const) {
        const res = await k.req()[m](WP).query({ key: SITE_KEY, api_key: k.cast.bob.key });
        expect(res.body).to.include({ contactId: k.cast.bob.contactId, flow: 'legacy' });
      }
    });
    it('checks api_key before key', async () => {
      wpError(await k.req().get(WP), 'Param api_key is not valid.');
      wpError(await k.req().get(WP).query({ key: 'wrong-site', api_key: 'wrong' }), 'Param api_key is not valid.');
      wpError(
        await k.req().get(WP).query({ key: SITE_KEY, api_key: k.cast.orphan.key }),
        'Param api_key is not valid.',
      );
      wpError(await k.req().get(WP).query({ api_key: k.cast.bob.key }), 'Param key is not valid.');
      wpError(await k.req().get(WP).query({ key: 'wrong-site', api_key: k.cast.bob.key }), 'Param key is not valid.');
    });
    it('does not listen to AuthX credentials (the route accepts legacy keys only)', async () => {
      wpError(await k.req().get(WP).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`), 'Param api_key is not valid.');
    });
  });
});
