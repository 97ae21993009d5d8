/**
 * The principal cache: a repeated API key or JWT costs no authentication query, and every change
 * that could alter the answer (keys, users, roles, blocks, contact deletion) empties it, on every
 * instance sharing the database.
 */
import { expect } from 'chai';
import supertest from 'supertest';
import { type Kernel } from '../../../kernel';
import { createApp, createKernel } from '../../../host';
import { principalWith, sqlDuring } from '../../../host/testing';
import { createLogger } from '../../../host';
import { issueJwt } from '../../../plugins/users/jwt';
import { PrincipalCache } from '../../../plugins/users/principal-cache';
import { bootAuth, expect401, FIXTURES, logsHold, SITE_KEY, type AuthKernel } from '../../fixtures/auth';

const AJAX = '/crm/ajax/rest';

describe('users: principal cache', () => {
  describe('PrincipalCache', () => {
    const value = { contactId: 1, user: null, permissions: new Set<string>(), cred: 'api_key' as const };

    it('keeps an entry for ttlSeconds, and never past notAfter', () => {
      let now = 1_000_000;
      const cache = new PrincipalCache({ ttlSeconds: 30, maxEntries: 10 }, () => now);
      cache.set('a', value);
      cache.set('b', value, now + 5_000);
      now += 6_000;
      expect(cache.get('a')).to.equal(value);
      expect(cache.get('b')).to.equal(undefined);
      now += 25_000;
      expect(cache.get('a')).to.equal(undefined);
      cache.set('c', value, now - 1);
      expect(cache.size).to.equal(0);
    });

    it('drops the oldest entry when full, and holds nothing with ttlSeconds 0', () => {
      const cache = new PrincipalCache({ ttlSeconds: 30, maxEntries: 2 });
      for (const k of ['a', 'b', 'c']) cache.set(k, value);
      expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).to.deep.equal([false, true, true]);
      const off = new PrincipalCache({ ttlSeconds: 0, maxEntries: 2 });
      off.set('a', value);
      expect(off.enabled).to.equal(false);
      expect(off.get('a')).to.equal(undefined);
    });

    it('keys by credential and address, without keeping the credential', () => {
      const cache = new PrincipalCache({ ttlSeconds: 30, maxEntries: 2 });
      const k = cache.key('crm_secret-key', '10.0.0.1');
      expect(k).to.not.include('crm_secret-key');
      expect(k).to.not.equal(cache.key('crm_secret-key', '10.0.0.2'));
      expect(k).to.equal(cache.key('crm_secret-key', '10.0.0.1'));
    });
  });

  describe('in the service', () => {
    let k: AuthKernel;
    before(async () => {
      k = await bootAuth({
        server: { trustProxy: true },
        users: { throttle: { maxFailuresPerIp: 2, maxFailuresPerUsername: 1000 } },
      });
    });
    after(async () => {
      expect(logsHold(k)).to.deep.equal([]);
      await k.t.close();
    });
    const get = (credential: string, ip = '192.0.2.1') =>
      k.req().get(AJAX).set('X-Forwarded-For', ip).set('X-Crm-Auth', credential);
    const queriesFor = async (fn: () => Promise<unknown>) => (await sqlDuring(k.t.kernel.db, fn)).length;

    it('answers a repeated API key or JWT without a query', async () => {
      const key = `Bearer ${k.cast.bob.key}`;
      expect(await queriesFor(() => get(key))).to.be.greaterThan(0);
      let res: supertest.Response | undefined;
      expect(
        await queriesFor(async () => {
          res = await get(key);
        }),
      ).to.equal(0);
      expect(res!.body).to.include({ contactId: k.cast.bob.contactId, userId: k.cast.bob.userId });
      expect(res!.body.permissions).to.include('authenticate with api key');
      const jwt = `Bearer ${await issueJwt(k.t.kernel.container.resolve('keyring'), k.cast.bob.contactId, 600)}`;
      expect(await queriesFor(() => get(jwt))).to.be.greaterThan(0);
      expect(
        await queriesFor(async () => {
          res = await get(jwt);
        }),
      ).to.equal(0);
      expect(res!.body).to.include({ contactId: k.cast.bob.contactId });
    });

    it('reads the anonymous role once, and a change to it applies at once', async () => {
      const db = k.t.kernel.db;
      const anonymous = () => k.req().get(AJAX).set('X-Forwarded-For', '192.0.2.9');
      await anonymous();
      let res: supertest.Response | undefined;
      expect(
        await queriesFor(async () => {
          res = await anonymous();
        }),
      ).to.equal(0);
      expect(res!.body).to.include({ contactId: null, userId: null });
      expect(res!.body.permissions).to.not.include('view all contacts');
      await k.identity.grantPermissions(db, 'anonymous', ['view all contacts']);
      expect((await anonymous()).body.permissions).to.include('view all contacts');
      await k.identity.revokePermissions(db, 'anonymous', ['view all contacts']);
      expect((await anonymous()).body.permissions).to.not.include('view all contacts');
    });

    it('still applies each flow’s policy to a cached principal', async () => {
      // alice has no `authenticate with api key`: her key needs the site key guard, cached or not.
      const key = `Bearer ${k.cast.alice.key}`;
      await get(key);
      expect401(await get(key), 'Login not permitted. Must satisfy guard (site_key, perm).');
    });

    it('forgets a revoked key, a disabled user and changed permissions at once', async () => {
      const db = k.t.kernel.db;
      const made = await k.identity.createApiKey(db, k.cast.bob.contactId);
      const key = `Bearer ${made.key}`;
      k.secrets.push(made.key);
      expect((await get(key)).body).to.include({ contactId: k.cast.bob.contactId });
      await k.identity.grantPermissions(db, 'apiuser', ['view all contacts']);
      expect((await get(key)).body.permissions).to.include('view all contacts');
      await k.identity.revokePermissions(db, 'apiuser', ['view all contacts']);
      expect((await get(key)).body.permissions).to.not.include('view all contacts');
      await k.identity.setActive(db, 'bob', false);
      expect401(await get(key), 'Cannot login. User is blocked.');
      await k.identity.setActive(db, 'bob', true);
      expect((await get(key)).body).to.include({ contactId: k.cast.bob.contactId });
      await k.identity.revokeApiKey(db, made.prefix);
      expect401(await get(key), 'Invalid credential');
    });

    it('does not let a cached key through from an address blocked since', async () => {
      const key = `Bearer ${k.cast.bob.key}`;
      const ip = '198.51.100.7';
      expect((await get(key, ip)).body).to.include({ contactId: k.cast.bob.contactId });
      for (let i = 0; i < 2; i++) await get('Bearer wrong', ip);
      expect401(await get(key, ip), 'Too many failed login attempts. Try again later.');
      expect((await get(key, '198.51.100.8')).body).to.include({ contactId: k.cast.bob.contactId });
    });

    it('forgets the key of a deleted contact', async () => {
      const db = k.t.kernel.db;
      const contactId = await k.identity.createContact(db, 'Short Lived');
      const made = await k.identity.createApiKey(db, contactId);
      k.secrets.push(made.key);
      // No user: the key passes the guard with the site key.
      const withSiteKey = () => get(`Bearer ${made.key}`).set('X-Crm-Key', SITE_KEY);
      expect((await withSiteKey()).body).to.include({ contactId });
      await k.t.kernel.call({
        version: 3,
        entity: 'Contact',
        action: 'delete',
        params: { id: contactId, skip_undelete: 1 },
        principal: principalWith(['*']),
      });
      expect401(await withSiteKey(), 'Invalid credential');
    });
  });

  describe('across instances (PostgreSQL)', function () {
    let first: AuthKernel;
    let second: Kernel;
    before(async function () {
      if (!process.env.DATABASE_URL) this.skip();
      first = await bootAuth();
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

    it('a key revoked through one instance is refused at once by the other', async () => {
      const made = await first.identity.createApiKey(first.t.kernel.db, first.cast.bob.contactId);
      const onB = async () =>
        supertest((await createApp(second)).callback())
          .get(AJAX)
          .set('X-Crm-Auth', `Bearer ${made.key}`);
      expect((await onB()).body).to.include({ contactId: first.cast.bob.contactId });
      await first.identity.revokeApiKey(first.t.kernel.db, made.prefix);
      // The notification travels through PostgreSQL: allow it a moment.
      const deadline = Date.now() + 3000;
      let res = await onB();
      while (res.status === 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        res = await onB();
      }
      expect401(res, 'Invalid credential');
    });

    it("a grant to the anonymous role through one instance reaches the other's anonymous callers", async () => {
      const app = supertest((await createApp(second)).callback());
      const holds = async () => ((await app.get(AJAX)).body.permissions as string[]).includes('view all contacts');
      expect(await holds()).to.equal(false);
      await first.identity.grantPermissions(first.t.kernel.db, 'anonymous', ['view all contacts']);
      const deadline = Date.now() + 3000;
      while (!(await holds()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await holds()).to.equal(true);
      await first.identity.revokePermissions(first.t.kernel.db, 'anonymous', ['view all contacts']);
    });
  });
});
