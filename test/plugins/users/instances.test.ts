/**
 * Two instances on one PostgreSQL database agree on secrets, sessions, throttling and the first run.
 * PostgreSQL only (embedded PGlite is single-process): skipped without DATABASE_URL.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import { type Kernel } from '../../../kernel';
import { createApp, createKernel } from '../../../host';
import { createLogger } from '../../../host';
import { firstRun } from '../../../plugins/users/first-run';
import type { IdentityStore } from '../../../plugins/users/store';
import { bootAuth, FIXTURES, PASSWORD, type AuthKernel } from '../../fixtures/auth';

describe('users: several instances share one database', function () {
  let first: AuthKernel;
  let second: Kernel;
  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    first = await bootAuth({
      users: { throttle: { maxFailuresPerIp: 2, maxFailuresPerUsername: 1000 } },
      server: { trustProxy: true },
    });
    // A second instance on the same schema and config; the session secret is not configured, so
    // both must load the one generated in the database.
    second = await createKernel({
      config: first.t.config,
      log: createLogger({ level: 'silent' }),
      pluginDirs: [FIXTURES],
    });
  });
  after(async () => {
    await second?.close();
    await first?.t.close();
  });

  it('agree on the generated session secret: a cookie from one works on the other', async () => {
    const login = await first.req().post('/crm/login').type('form').send({ username: 'bob', password: PASSWORD });
    const pair = ([] as string[]).concat(login.headers['set-cookie'] ?? [])[0].split(';')[0];
    const res = await supertest((await createApp(second)).callback())
      .get('/crm/ajax/rest')
      .set('Cookie', pair);
    expect(res.body).to.include({ contactId: first.cast.bob.contactId, flow: 'session' });
  });

  it('agree on throttling', async () => {
    for (let i = 0; i < 2; i++)
      await first.req().get('/crm/ajax/rest').set('X-Forwarded-For', '203.0.113.9').set('X-Crm-Auth', 'Bearer wrong');
    const res = await supertest((await createApp(second)).callback())
      .get('/crm/ajax/rest')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('X-Crm-Auth', `Bearer ${first.cast.bob.key}`);
    expect(res.text).to.equal('HTTP 401 Too many failed login attempts. Try again later.');
  });

  it('run the first-run set-up once between them', async () => {
    await first.t.kernel.db('crm_user').delete();
    const out: string[] = [];
    const run = (k: Kernel) =>
      firstRun(k.db, k.container.resolve('identity') as IdentityStore, k.container.cradle.keyring, 'http://x', (s) =>
        out.push(s),
      );
    const results = await Promise.all([run(first.t.kernel), run(second)]);
    expect(results.filter(Boolean)).to.have.length(1);
    expect(out).to.have.length(1);
  });
});
