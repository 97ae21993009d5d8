/**
 * The service under attack: the default plugin set booted for real (PGlite in memory, or a fresh
 * schema on PostgreSQL when DATABASE_URL is set), listening on a real port, with its log captured,
 * and seeded with the users, keys and tokens the probes use. Every secret created here is recorded
 * so the leak pass can look for it.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { bootTestKernel, type TestKernel } from '../../host/testing';
import { collectRoutes, type MountedRoute } from '../../host/http/app';
import { issueJwt, type IdentityStore, type Keyring } from '../../plugins/users';

export const SITE_KEY = 'hostile-site-key-Zq8v3LxP';
export const SIGNING_SECRET = 'hostile-signing-secret-5c0d1e9a7b3f4e2d8c6a';
export const SESSION_SECRET = 'hostile-session-secret-9a8b7c6d5e4f3a2b1c0d';
export const PASSWORD = 'Hostile pass phrase 7f3k';
export const CLIENT_SECRET = 'hostile-client-secret-Pw4nX2qL';

export interface Who {
  username: string;
  password: string;
  contactId: number;
  key: string;
}

export interface Service {
  t: TestKernel;
  server: Server;
  base: string;
  port: number;
  routes: MountedRoute[];
  admin: Who;
  nobody: Who;
  selfie: Who;
  other: { contactId: number; emailId: number };
  jwt: string;
  /** Every secret the run created: searched for in every response and log line. */
  secrets: Map<string, string>;
  close(): Promise<void>;
}

export async function startService(): Promise<Service> {
  const booted = await bootTestKernel({
    logLevel: 'info',
    config: {
      pluginConfig: {
        // Passwords accepted in headers too, so Basic credentials are part of the attack surface.
        'auth-authx': { flows: { header: { cred: ['jwt', 'api_key', 'pass'] } } },
        users: {
          siteKey: SITE_KEY,
          signingKeys: [{ kid: 'k1', secret: SIGNING_SECRET }],
          sessionSecret: SESSION_SECRET,
        },
      },
    },
  });
  const app = await booted.app();
  const server = app.listen({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const identity = booted.kernel.container.resolve<IdentityStore>('identity');
  const db = booted.kernel.db;
  await identity.grantPermissions(db, 'self', [
    'access CRM',
    'view my contact',
    'edit my contact',
    'authenticate with api key',
    'authenticate with password',
  ]);
  const make = async (username: string, roles: string[]): Promise<Who> => {
    const password = `${PASSWORD} ${username}`;
    const u = await identity.createUser(db, { username, password, roles });
    const { key } = await identity.createApiKey(db, u.contact_id, `hostile ${username}`);
    return { username, password, contactId: u.contact_id, key };
  };
  const admin = await make('hadmin', ['administrator']);
  const nobody = await make('nobody', []);
  const selfie = await make('selfie', ['self']);
  const jwt = await issueJwt(booted.kernel.container.resolve<Keyring>('keyring'), admin.contactId, 3600);
  const secrets = new Map<string, string>([
    ['site key', SITE_KEY],
    ['JWT signing secret', SIGNING_SECRET],
    ['session secret', SESSION_SECRET],
    ['admin password', admin.password],
    ['nobody password', nobody.password],
    ['selfie password', selfie.password],
    ['admin API key', admin.key],
    ['nobody API key', nobody.key],
    ['selfie API key', selfie.key],
    ['admin JWT', jwt],
    ['OAuth client secret', CLIENT_SECRET],
  ]);
  const routes = await collectRoutes(booted.kernel);
  const svc: Service = {
    t: booted,
    server,
    base,
    port,
    routes,
    admin,
    nobody,
    selfie,
    other: { contactId: 0, emailId: 0 },
    jwt,
    secrets,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await booted.close();
    },
  };
  return svc;
}
