import { expect } from 'chai';
import { basic, bootAuth, logsHold, PASSWORD, SITE_KEY, type AuthKernel } from '../../fixtures/auth';

const AJAX = '/crm/ajax/rest';
const THROTTLED = 'Too many failed login attempts. Try again later.';

describe('users: failed-login throttling', () => {
  let k: AuthKernel;
  before(async () => {
    k = await bootAuth({
      server: { trustProxy: true },
      users: { throttle: { maxFailuresPerIp: 3, maxFailuresPerUsername: 2, windowSeconds: 600, lockoutSeconds: 120 } },
      authx: { flows: { xheader: { cred: ['jwt', 'api_key', 'pass'] } } },
    });
  });
  after(async () => {
    expect(logsHold(k)).to.deep.equal([]);
    await k.t.close();
  });
  const from = (ip: string) => ({
    get: (path: string) => k.req().get(path).set('X-Forwarded-For', ip),
    post: (path: string) => k.req().post(path).set('X-Forwarded-For', ip),
  });

  it('blocks an address after maxFailuresPerIp bad credentials, even for a good one, with Retry-After', async () => {
    const ip = '203.0.113.1';
    for (let i = 0; i < 3; i++) {
      const res = await from(ip).get(AJAX).set('X-Crm-Auth', `Bearer wrong-${i}`);
      expect(res.text).to.equal('HTTP 401 Invalid credential');
    }
    const blocked = await from(ip).get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`);
    expect(blocked.status).to.equal(401);
    expect(blocked.headers['content-type']).to.match(/^text\/plain/);
    expect(blocked.text).to.equal(`HTTP 401 ${THROTTLED}`);
    const wait = Number(blocked.headers['retry-after']);
    expect(wait).to.be.greaterThan(100).and.at.most(120);
    // Another address is not affected.
    const other = await from('203.0.113.2').get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`);
    expect(other.body).to.include({ contactId: k.cast.bob.contactId });
  });

  it('keeps the state in the database (every instance sees it)', async () => {
    const row = await k.t.kernel.db('crm_login_failure').where({ key: 'ip:203.0.113.1' }).first();
    expect(row.blocked_until).to.not.equal(null);
  });

  it('refusals that are not guesses (a guard) do not count', async () => {
    const ip = '203.0.113.3';
    for (let i = 0; i < 5; i++) {
      const res = await from(ip).get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.alice.key}`);
      expect(res.text).to.equal('HTTP 401 Login not permitted. Must satisfy guard (site_key, perm).');
    }
    const ok = await from(ip).get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.alice.key}`).set('X-Crm-Key', SITE_KEY);
    expect(ok.body).to.include({ contactId: k.cast.alice.contactId });
  });

  it('blocks a username after maxFailuresPerUsername wrong passwords, from any address', async () => {
    await from('198.51.100.1').get(AJAX).set('X-Crm-Auth', basic('bob', 'wrong one'));
    await from('198.51.100.2').get(AJAX).set('X-Crm-Auth', basic('bob', 'wrong two'));
    const res = await from('198.51.100.3').get(AJAX).set('X-Crm-Auth', basic('bob', PASSWORD));
    expect(res.text).to.equal(`HTTP 401 ${THROTTLED}`);
    expect(res.headers['retry-after']).to.match(/^\d+$/);
    // The login page refuses bob too, in its own shape.
    const page = await from('198.51.100.4')
      .post('/crm/login')
      .type('form')
      .send({ username: 'bob', password: PASSWORD });
    expect(page.status).to.equal(401);
    expect(page.text).to.include(THROTTLED);
    expect(page.headers['retry-after']).to.match(/^\d+$/);
    expect(page.headers['set-cookie']).to.equal(undefined);
    // API keys of the same user are not tied to the username counter.
    const key = await from('198.51.100.5').get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`);
    expect(key.body).to.include({ contactId: k.cast.bob.contactId });
  });

  it('a success clears the username counter', async () => {
    await from('192.0.2.10').get(AJAX).set('X-Crm-Auth', basic('admin', 'wrong'));
    await from('192.0.2.11').get(AJAX).set('X-Crm-Auth', basic('admin', PASSWORD));
    await from('192.0.2.12').get(AJAX).set('X-Crm-Auth', basic('admin', 'wrong'));
    const res = await from('192.0.2.13').get(AJAX).set('X-Crm-Auth', basic('admin', PASSWORD));
    expect(res.body).to.include({ contactId: k.cast.admin.contactId });
  });

  it('legacy end-points answer a blocked address in their own shapes', async () => {
    const ip = '203.0.113.50';
    for (let i = 0; i < 3; i++) await from(ip).get('/crm/extern/rest.php').query({ key: 'bad-site-key' });
    const extern = await from(ip).get('/crm/extern/rest.php').query({ key: SITE_KEY, api_key: k.cast.bob.key });
    expect(extern.body).to.deep.equal({ error_message: THROTTLED, is_error: 1 });
    const wp = await from(ip).get('/wp-json/crm/v3/rest').query({ key: SITE_KEY, api_key: k.cast.bob.key });
    expect(wp.status).to.equal(401);
    expect(wp.body).to.deep.equal({ code: 'crm_rest_api_error', message: THROTTLED, data: { status: 401 } });
    expect(wp.headers['retry-after']).to.match(/^\d+$/);
    const ajax = await from(ip).post(AJAX).type('form').send({ key: SITE_KEY, api_key: k.cast.bob.key });
    expect(ajax.status).to.equal(200);
    expect(ajax.text).to.equal(JSON.stringify({ error_message: `FATAL: ${THROTTLED}`, is_error: 1 }));
  });
});
