/** Boots the meetings fixture (test/fixtures/row-access) behind the REST bindings, with users holding API keys. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type supertest from 'supertest';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import type { IdentityStore } from '../../../plugins/users';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/row-access');
const USERS = {
  siteKey: 'site-key-for-meetings-tests',
  signingKeys: [{ kid: 'k1', secret: 'k1-secret-0123456789abcdef0123456789abcdef' }],
};
export type Row = Record<string, unknown>;
export type Headers = Record<string, string>;

export interface Meetings {
  t: TestKernel;
  /** A user with an API key holding these permissions (and API access): its headers and contact. */
  userWith(name: string, permissions: string[]): Promise<{ headers: Headers; contactId: number }>;
  api4(who: Headers, entity: string, action: string, params: Row): Promise<Row & { values: Row[] }>;
  api3(who: Headers, entity: string, action: string, params: Row): Promise<Row & { values: Row[] }>;
}

export async function bootMeetings(): Promise<Meetings> {
  const testKernel = await bootTestKernel({
    plugins: ['users', 'auth-authx', 'rest-api3', 'rest-api4', 'meetings'],
    pluginDirs: [FIXTURES],
    logLevel: 'warn',
    config: { pluginConfig: { users: USERS } },
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
