import { expect } from 'chai';
import { basic, bootAuth, expect401, logsHold, PASSWORD, SITE_KEY, type AuthKernel } from '../../fixtures/auth';

const AJAX = '/crm/ajax/rest';

describe('auth-authx: per-flow settings', () => {
  describe('passwords opted in for header and param, user link require on param, guards off', () => {
    let k: AuthKernel;
    before(async () => {
      k = await bootAuth({
        authx: {
          flows: {
            header: { cred: ['pass', 'api_key'] },
            param: { cred: ['pass', 'jwt', 'api_key'], user: 'require' },
            xheader: { cred: ['pass', 'api_key'], user: 'ignore' },
          },
          guards: [],
        },
      });
    });
    after(async () => {
      expect(logsHold(k)).to.deep.equal([]);
      await k.t.close();
    });

    it('accepts Basic on the header flow, keeping the default user mode', async () => {
      const res = await k.req().get(AJAX).set('Authorization', basic('alice', PASSWORD));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        contactId: k.cast.alice.contactId,
        userId: k.cast.alice.userId,
        via: 'pass',
        flow: 'header',
      });
    });
    it('accepts Basic on the param flow', async () => {
      const res = await k
        .req()
        .post(AJAX)
        .type('form')
        .send({ _authx: basic('bob', PASSWORD) });
      expect(res.body).to.include({ contactId: k.cast.bob.contactId, via: 'pass', flow: 'param' });
    });
    it('accepts Basic on the xheader flow (user mode ignore keeps only the contact)', async () => {
      const res = await k.req().get(AJAX).set('X-Crm-Auth', basic('bob', PASSWORD));
      expect(res.body).to.include({ contactId: k.cast.bob.contactId, userId: null, via: 'pass', flow: 'xheader' });
    });
    it('still refuses a wrong password', async () => {
      expect401(await k.req().get(AJAX).set('Authorization', basic('alice', 'not the password')), 'Invalid credential');
    });
    it('refuses a type left out of a flow (jwt on header)', async () => {
      const { issueJwt } = await import('../../../plugins/users');
      const tok = await issueJwt(k.t.kernel.container.cradle.keyring, k.cast.bob.contactId, 60);
      k.secrets.push(tok);
      expect401(
        await k.req().get(AJAX).set('Authorization', `Bearer ${tok}`),
        'Authentication type "jwt" with flow "header" is not allowed for this principal.',
      );
    });
    it('guards off: an API key needs neither the site key nor the permission', async () => {
      const res = await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.alice.key}`);
      expect(res.body).to.include({ contactId: k.cast.alice.contactId, via: 'api_key' });
    });
    it('user mode require: a contact without a user is refused', async () => {
      expect401(
        await k
          .req()
          .post(AJAX)
          .type('form')
          .send({ _authx: `Bearer ${k.cast.orphan.key}` }),
        'Cannot login. No matching user is available.',
      );
    });
    it('user mode ignore: the user is dropped and only the contact is authenticated', async () => {
      const res = await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.admin.key}`);
      expect(res.body).to.include({ contactId: k.cast.admin.contactId, userId: null });
      expect(res.body.permissions).to.not.include('*');
    });
  });

  describe('guards: site_key only; header flow disabled', () => {
    let k: AuthKernel;
    before(async () => {
      k = await bootAuth({ authx: { guards: ['site_key'], flows: { header: { cred: [] } } } });
    });
    after(() => k.t.close());

    it('the permission no longer stands in for the site key', async () => {
      expect401(
        await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`),
        'Login not permitted. Must satisfy guard (site_key).',
      );
      const ok = await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`).set('X-Crm-Key', SITE_KEY);
      expect(ok.body).to.include({ contactId: k.cast.bob.contactId });
    });
    it('an Authorization header is not read when the header flow allows no credential type', async () => {
      const res = await k.req().get(AJAX).set('Authorization', `Bearer ${k.cast.bob.key}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ contactId: null, via: 'anonymous' });
    });
  });

  describe('with compat-civicrm registered', () => {
    let k: AuthKernel;
    before(async () => {
      k = await bootAuth({ plugins: ['fake-compat'] });
    });
    after(() => k.t.close());

    it('reads X-Civi-Auth and X-Civi-Key too', async () => {
      const res = await k.req().get(AJAX).set('X-Civi-Auth', `Bearer ${k.cast.alice.key}`).set('X-Civi-Key', SITE_KEY);
      expect(res.body).to.include({ contactId: k.cast.alice.contactId, flow: 'xheader', via: 'api_key' });
    });
    it('X-Crm-Auth still works', async () => {
      const res = await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`);
      expect(res.body).to.include({ contactId: k.cast.bob.contactId });
    });
  });
});
