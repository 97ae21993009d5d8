/**
 * Boots a set of entity plugins behind the REST bindings, with users holding API keys, for tests that call
 * both APIs over HTTP as clients do (the meetings fixture, tags and notes).
 */
import type supertest from 'supertest';
import { bootTestKernel, type TestKernel } from '../../host/testing';
import type { IdentityStore } from '../../plugins/users';

export type Row = Record<string, unknown>;
export type Headers = Record<string, string>;
export type Answer = Row & { values: Row[] & Record<string, Row> };

export interface EntityHttp {
  t: TestKernel;
  /** A user with an API key holding these permissions (and API access): its headers and contact. */
  userWith(name: string, permissions: string[]): Promise<{ headers: Headers; contactId: number }>;
  api4(who: Headers, entity: string, action: string, params: Row): Promise<Answer>;
  api3(who: Headers, entity: string, action: string, params: Row): Promise<Answer>;
}

export async function bootEntityHttp(opts: {
  plugins: string[];
  pluginDirs?: string[];
  /** Plugin options by plugin name (merged with the users plugin's test keys). */
  pluginConfig?: Record<string, unknown>;
}): Promise<EntityHttp> {
  const testKernel = await bootTestKernel({
    plugins: ['users', 'auth-authx', 'rest-api3', 'rest-api4', ...opts.plugins],
    pluginDirs: opts.pluginDirs,
    logLevel: 'warn',
    config: {
      pluginConfig: {
        users: {
          siteKey: 'site-key-for-entity-http-tests',
          signingKeys: [{ kid: 'k1', secret: 'k1-secret-0123456789abcdef0123456789abcdef' }],
        },
        ...opts.pluginConfig,
      },
    },
  });
  const http: supertest.Agent = await testKernel.http();
  return {
    t: testKernel,
    async userWith(name, permissions) {
      const identity = testKernel.kernel.container.resolve('identity') as IdentityStore;
      const db = testKernel.kernel.db;
      await identity.ensureRole(db, name);
      await identity.grantPermissions(db, name, ['authenticate with api key', 'access AJAX API', ...permissions]);
      const user = await identity.createUser(db, { username: name, password: 'pw-for-tests-123', roles: [name] });
      const { key } = await identity.createApiKey(db, user.contact_id);
      return {
        headers: { Authorization: `Bearer ${key}`, 'X-Requested-With': 'XMLHttpRequest' },
        contactId: user.contact_id,
      };
    },
    async api4(who, entity, action, params) {
      const res = await http
        .post(`/crm/ajax/api4/${entity}/${action}`)
        .set(who)
        .type('form')
        .send({ params: JSON.stringify(params) });
      return res.body;
    },
    async api3(who, entity, action, params) {
      const res = await http
        .post('/crm/ajax/rest')
        .set(who)
        .type('form')
        .send({ entity, action, json: JSON.stringify(params) });
      return res.body;
    },
  };
}
