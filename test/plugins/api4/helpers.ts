/** Shared set-up for the APIv4 tests: real auth (users + auth plugins), API keys from the identity service. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import supertest from 'supertest';
import { createRequestScope, type Principal } from '../../../kernel';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import type { Api4Result, Api4Service } from '../../../plugins/api4/types';
import type { IdentityStore } from '../../../plugins/users';
import '../../../plugins/users';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const SITE_KEY = 'site-key-for-api4-tests';
export const PLUGINS = [
  'users',
  'auth-authx',
  'auth-legacy-keys',
  'auth-session',
  'entity-core',
  'entity-option',
  'api3',
  'entity-contact',
  'api4',
  'rest-api4',
  'api4-fixture',
];
export const ADMIN = principalWith(['*'], 1);

export interface User {
  userId: number;
  contactId: number;
  key: string;
}

export interface Api4Kernel {
  t: TestKernel;
  identity: IdentityStore;
  /** A fresh supertest (no cookie jar). */
  req(): supertest.Agent;
  /** Creates a user with these permissions (own role) and an API key. */
  user(name: string, permissions: string[]): Promise<User>;
  /** In-process call through the api4 service. */
  call(entity: string, action: string, params?: Record<string, unknown>, principal?: Principal): Promise<Api4Result>;
}

export async function bootApi4(
  opts: { plugins?: string[]; config?: Record<string, unknown> } = {},
): Promise<Api4Kernel> {
  const testKernel = await bootTestKernel({
    plugins: opts.plugins ?? PLUGINS,
    pluginDirs: [FIXTURES],
    logLevel: 'info',
    config: {
      pluginConfig: {
        users: {
          siteKey: SITE_KEY,
          signingKeys: [{ kid: 'k1', secret: 'k1-secret-0123456789abcdef0123456789abcdef' }],
          throttle: { maxFailuresPerIp: 1000, maxFailuresPerUsername: 1000 },
        },
        ...(opts.config ?? {}),
      },
    },
  });
  const identity = testKernel.kernel.container.resolve('identity') as IdentityStore;
  const app = await testKernel.app();
  const db = testKernel.kernel.db;
  return {
    t: testKernel,
    identity,
    req: () => supertest(app.callback()) as unknown as supertest.Agent,
    async user(name, permissions) {
      await identity.ensureRole(db, `role_${name}`);
      await identity.grantPermissions(db, `role_${name}`, ['authenticate with api key', ...permissions]);
      const u = await identity.createUser(db, {
        username: name,
        password: 'pw-for-tests-123',
        roles: [`role_${name}`],
      });
      const { key } = await identity.createApiKey(db, u.contact_id);
      return { userId: u.id, contactId: u.contact_id, key };
    },
    async call(entity, action, params = {}, principal = ADMIN) {
      const scope = createRequestScope(testKernel.kernel.container, 'test', principal);
      try {
        return await (scope.cradle.api4 as Api4Service).call({ entity, action, params, principal, scope });
      } finally {
        await scope.dispose();
      }
    },
  };
}

/** Headers for the AuthX header flow (not CSRF-exempt: adds X-Requested-With). */
export const bearer = (key: string) => ({ Authorization: `Bearer ${key}`, 'X-Requested-With': 'XMLHttpRequest' });

/** A form POST of `params` (JSON) to `/crm/ajax/api4/<path>` with the user's API key, as clients send it. */
export const postApi4 = (k: Api4Kernel, u: User, path: string, params: unknown, extra: Record<string, unknown> = {}) =>
  k
    .req()
    .post(`/crm/ajax/api4/${path}`)
    .set(bearer(u.key))
    .type('form')
    .send({ params: JSON.stringify(params), ...extra });
