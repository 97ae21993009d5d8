/**
 * Real OAuth2 authorization servers for tests, started from npm packages on 127.0.0.1 ephemeral
 * ports (no mocks):
 *
 * - `oidc-provider`: authorization code with PKCE (login and consent through its development
 *   interactions, driven with plain HTTP by {@link scriptedLogin}), refresh tokens, client
 *   credentials, RS256-signed id_tokens with a JWKS at `/jwks`.
 * - `@node-oauth/oauth2-server`: password grant and refresh-token rotation, over a small in-memory model.
 *
 * @example
 * const servers = await startOAuthServers();
 * writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
 * …
 * await servers.stop();
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import OAuth2Server from '@node-oauth/oauth2-server';
import Provider from 'oidc-provider';

/** Fixed credentials of the clients and users both servers know. */
export const OIDC_CLIENT = {
  id: 'crm-oidc-client',
  secret: 'oidc-secret-9f2c1e7a4b',
  redirectUri: 'http://127.0.0.1:9/crm/oauth-client/return',
};
export const OIDC_M2M_CLIENT = { id: 'crm-oidc-m2m', secret: 'oidc-m2m-secret-55aa71' };
export const O2S_CLIENT = { id: 'crm-o2s-client', secret: 'o2s-secret-31c0de' };
export const O2S_USER = { username: 'alice', password: 'wonderland-7' };

export interface RunningOAuthServers {
  oidc: {
    url: string;
    issuer: string;
    jwksUrl: string;
    tokenUrl: string;
    authorizeUrl: string;
    userinfoUrl: string;
    provider: Provider;
  };
  o2s: { url: string; tokenUrl: string; tokens: O2sStore };
  /** A URL on 127.0.0.1 where nothing listens (a provider that is down). */
  closedUrl: string;
  /**
   * A misbehaving server: `/hang` never answers, `/html` answers 200 HTML, `/html-error` 500 HTML,
   * `/no-token` JSON without access_token.
   */
  oddUrl: string;
  stop(): Promise<void>;
}

interface O2sToken {
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken?: string;
  refreshTokenExpiresAt?: Date;
  scope?: string[];
  client: { id: string };
  user: { id: string; username: string };
}

export interface O2sStore {
  byAccess: Map<string, O2sToken>;
  byRefresh: Map<string, O2sToken>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections?.();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port that was free a moment ago and where nothing listens now. */
export async function closedPort(): Promise<string> {
  const s = http.createServer();
  const url = await listen(s);
  await close(s);
  return url;
}

async function startOidc(extraRedirectUris: string[] = []) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    kid: `k-${randomBytes(4).toString('hex')}`,
    alg: 'RS256',
    use: 'sig',
  };
  // The issuer needs the port, so bind first and attach the provider's handler afterwards.
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  const url = await listen(server);
  const provider = new Provider(url, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [OIDC_CLIENT.redirectUri, ...extraRedirectUris],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'openid email offline_access',
      },
      {
        client_id: OIDC_M2M_CLIENT.id,
        client_secret: OIDC_M2M_CLIENT.secret,
        redirect_uris: [],
        response_types: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'api:read api:write',
      },
    ],
    jwks: { keys: [jwk] },
    scopes: ['openid', 'email', 'offline_access', 'api:read', 'api:write'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // Put the email claims in the id_token too, so {{use_id_token}} has something to show.
    conformIdTokenClaims: false,
    // Always rotate, so tests can tell a rotated refresh token from the old one.
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: 3600,
      ClientCredentials: 600,
      IdToken: 3600,
      RefreshToken: 86400,
      Interaction: 600,
      Session: 3600,
      Grant: 86400,
      AuthorizationCode: 60,
    },
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, email: `${sub}@example.test`, email_verified: true }) };
    },
  } as never);
  handler = provider.callback() as http.RequestListener;
  return {
    url,
    issuer: url,
    provider,
    server,
    jwksUrl: `${url}/jwks`,
    tokenUrl: `${url}/token`,
    authorizeUrl: `${url}/auth`,
    userinfoUrl: `${url}/me`,
  };
}

/** A plain Node server around @node-oauth/oauth2-server's token endpoint. */
async function startO2s() {
  const store: O2sStore = { byAccess: new Map(), byRefresh: new Map() };
  const user = { id: 'u-1', username: O2S_USER.username };
  const client = {
    id: O2S_CLIENT.id,
    grants: ['password', 'refresh_token'],
    accessTokenLifetime: 3600,
    refreshTokenLifetime: 86400,
  };
  const model = {
    async getClient(id: string, secret: string | null) {
      if (id !== O2S_CLIENT.id) return false;
      if (secret !== null && secret !== O2S_CLIENT.secret) return false;
      return client;
    },
    async getUser(username: string, password: string) {
      return username === O2S_USER.username && password === O2S_USER.password ? user : false;
    },
    async saveToken(token: Omit<O2sToken, 'client' | 'user'>, c: { id: string }, u: O2sToken['user']) {
      const saved: O2sToken = { ...token, client: { id: c.id }, user: u };
      store.byAccess.set(token.accessToken, saved);
      if (token.refreshToken) store.byRefresh.set(token.refreshToken, saved);
      return { ...saved, username: u.username };
    },
    async getAccessToken(t: string) {
      return store.byAccess.get(t) ?? false;
    },
    async getRefreshToken(t: string) {
      return store.byRefresh.get(t) ?? false;
    },
    async revokeToken(t: O2sToken) {
      return store.byRefresh.delete(t.refreshToken!);
    },
    async validateScope(_u: unknown, _c: unknown, scope?: string[]) {
      const allowed = ['mail', 'profile'];
      if (!scope || !scope.length) return ['profile'];
      return scope.every((s) => allowed.includes(s)) ? scope : false;
    },
  };
  const oauth = new OAuth2Server({
    model: model as never,
    alwaysIssueNewRefreshToken: true,
    requireClientAuthentication: { password: true, refresh_token: true },
  });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (url.pathname === '/me' && req.method === 'GET') {
      const token = store.byAccess.get(String(req.headers.authorization ?? '').replace(/^Bearer /i, ''));
      if (!token || token.accessTokenExpiresAt < new Date()) return send(401, { error: 'invalid_token' });
      return send(200, {
        id: token.user.id,
        username: token.user.username,
        email: `${token.user.username}@example.test`,
      });
    }
    if (url.pathname !== '/token' || req.method !== 'POST') return send(404, { error: 'not_found' });
    const request = new OAuth2Server.Request({
      method: req.method,
      headers: req.headers as Record<string, string>,
      query: Object.fromEntries(url.searchParams),
      body,
    });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      await oauth.token(request, response);
      send(response.status ?? 200, response.body, response.headers as Record<string, string>);
    } catch (err) {
      const failure = err as { code?: number; name?: string; message?: string };
      send(failure.code ?? 500, { error: failure.name ?? 'server_error', error_description: failure.message });
    }
  });
  const url = await listen(server);
  return { url, tokenUrl: `${url}/token`, tokens: store, server };
}

/** A token endpoint that gets everything wrong, one way per path. */
async function startOdd() {
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    req.resume();
    const p = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (p === '/hang') return void hanging.add(res);
    if (p === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome!</html>');
    if (p === '/html-error') return void res.writeHead(500, { 'content-type': 'text/html' }).end('<html>Oops</html>');
    if (p === '/no-token')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ token_type: 'Bearer', expires_in: 60 }));
    res.writeHead(404).end();
  });
  const url = await listen(server);
  return { url, server };
}

/** `extraRedirectUris`: more redirect URIs the oidc client accepts (a service listening on a real port). */
export async function startOAuthServers(opts: { extraRedirectUris?: string[] } = {}): Promise<RunningOAuthServers> {
  const [oidc, o2s, closedUrl, odd] = await Promise.all([
    startOidc(opts.extraRedirectUris),
    startO2s(),
    closedPort(),
    startOdd(),
  ]);
  return {
    oidc: {
      url: oidc.url,
      issuer: oidc.issuer,
      jwksUrl: oidc.jwksUrl,
      tokenUrl: oidc.tokenUrl,
      authorizeUrl: oidc.authorizeUrl,
      userinfoUrl: oidc.userinfoUrl,
      provider: oidc.provider,
    },
    o2s: { url: o2s.url, tokenUrl: o2s.tokenUrl, tokens: o2s.tokens },
    closedUrl,
    oddUrl: odd.url,
    async stop() {
      await Promise.all([close(oidc.server), close(o2s.server), close(odd.server)]);
    },
  };
}

/** Alias kept short for tests: `const s = await start(); … await s.stop()`. */
export const start = startOAuthServers;

/** Provider records (our JSON shape) pointing at the running servers, keyed by provider name. */
export function testProviderRecords(servers: RunningOAuthServers): Record<string, Record<string, unknown>> {
  return {
    oidc_local: {
      title: 'Local oidc-provider',
      options: {
        urlAuthorize: servers.oidc.authorizeUrl,
        urlAccessToken: servers.oidc.tokenUrl,
        urlResourceOwnerDetails: '{{use_id_token}}',
        urlJwks: servers.oidc.jwksUrl,
        issuer: servers.oidc.issuer,
        scopes: ['openid', 'email', 'offline_access'],
        scopeSeparator: ' ',
        prompt: 'consent',
      },
    },
    oidc_userinfo: {
      title: 'Local oidc-provider (userinfo endpoint)',
      options: {
        urlAuthorize: servers.oidc.authorizeUrl,
        urlAccessToken: servers.oidc.tokenUrl,
        urlResourceOwnerDetails: servers.oidc.userinfoUrl,
        scopes: ['openid', 'email', 'offline_access'],
        scopeSeparator: ' ',
        prompt: 'consent',
      },
    },
    oidc_m2m: {
      title: 'Local oidc-provider (client credentials)',
      options: {
        urlAuthorize: servers.oidc.authorizeUrl,
        urlAccessToken: servers.oidc.tokenUrl,
        urlResourceOwnerDetails: servers.oidc.userinfoUrl,
        scopes: ['api:read'],
        scopeSeparator: ' ',
      },
    },
    o2s_local: {
      title: 'Local @node-oauth/oauth2-server',
      options: {
        urlAuthorize: `${servers.o2s.url}/authorize`,
        urlAccessToken: servers.o2s.tokenUrl,
        urlResourceOwnerDetails: `${servers.o2s.url}/me`,
        scopes: ['profile'],
        scopeSeparator: ' ',
      },
    },
    down_local: {
      title: 'A provider that is down',
      options: {
        urlAuthorize: `${servers.closedUrl}/auth`,
        urlAccessToken: `${servers.closedUrl}/token`,
        urlResourceOwnerDetails: `${servers.closedUrl}/me`,
        scopes: ['x'],
      },
    },
    ...Object.fromEntries(
      ['hang', 'html', 'html-error', 'no-token'].map((p) => [
        `odd_${p.replace('-', '_')}`,
        {
          title: `Misbehaving token endpoint (${p})`,
          options: { urlAuthorize: `${servers.oddUrl}/auth`, urlAccessToken: `${servers.oddUrl}/${p}`, scopes: ['x'] },
        },
      ]),
    ),
  };
}

/** Writes the test providers as `<name>.test.json` files into `dir` (e.g. `<dataDir>/oauth-providers`). */
export function writeTestProviders(s: RunningOAuthServers, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return Object.entries(testProviderRecords(s)).map(([name, record]) => {
    const file = path.join(dir, `${name}.test.json`);
    writeFileSync(file, JSON.stringify(record, null, 2));
    return file;
  });
}

/** A fresh temporary data directory for one test kernel. */
export function tempDataDir(): string {
  const dir = path.join(process.env.TMPDIR ?? '/tmp', `crm-oauth-${process.pid}-${randomUUID().slice(0, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A tiny cookie jar: enough for oidc-provider's interaction cookies. */
class CookieJar {
  private cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`No form in the interaction page: ${html.slice(0, 200)}`);
  const fields: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]+)"/.exec(m[0])?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
  }
  return { action: form[1].replace(/&amp;/g, '&'), fields };
}

/**
 * Plays the user at oidc-provider: opens the authorization URL, follows redirects, signs in as
 * `login` and gives consent by posting the interaction forms, and returns the final redirect to
 * the client (`redirect_uri?code=…&state=…`) without following it.
 */
export async function scriptedLogin(authorizationUrl: string, redirectUri: string, login = 'alice'): Promise<URL> {
  const jar = new CookieJar();
  let next: { url: string; method: 'GET' | 'POST'; body?: URLSearchParams } = { url: authorizationUrl, method: 'GET' };
  for (let step = 0; step < 20; step++) {
    const res = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: next.body,
    });
    jar.store(res);
    if (res.status >= 300 && res.status < 400) {
      const location = new URL(res.headers.get('location')!, next.url);
      await res.arrayBuffer();
      if (location.href.startsWith(redirectUri)) return location;
      next = { url: location.href, method: 'GET' };
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`Authorization server answered ${res.status}: ${html.slice(0, 300)}`);
    const { action, fields } = parseForm(html);
    if ('login' in fields) {
      fields.login = login;
      fields.password = 'any-password';
    }
    next = { url: new URL(action, next.url).href, method: 'POST', body: new URLSearchParams(fields) };
  }
  throw new Error('Too many steps in the scripted login');
}

/** The plugins oauth-client needs (its dependencies) plus itself: spread before the grant plugins under test. */
export const OAUTH_BASE_PLUGINS = ['entity-core', 'entity-option', 'api3', 'entity-contact', 'users', 'oauth-client'];

/** The client secrets and the user password the local servers accept: none may ever reach a log. */
export const SERVER_SECRETS = [OIDC_CLIENT.secret, OIDC_M2M_CLIENT.secret, O2S_CLIENT.secret, O2S_USER.password];

/** Fails when a log line holds a server secret or any token the local servers issued. */
export function expectNoSecretsLogged(logs: string[], servers: RunningOAuthServers): void {
  const text = logs.join('\n');
  for (const secret of SERVER_SECRETS)
    if (text.includes(secret)) throw new Error('a client secret or password reached the logs');
  for (const token of [...servers.o2s.tokens.byAccess.keys(), ...servers.o2s.tokens.byRefresh.keys()]) {
    if (text.includes(token)) throw new Error('an issued token reached the logs');
  }
}

/** The `after` of a test with local OAuth servers: closes the kernel, stops the servers, removes the data folder. */
export async function stopOAuthTest(
  t: { close(): Promise<void> } | undefined,
  servers: RunningOAuthServers | undefined,
  dataDir?: string,
): Promise<void> {
  await t?.close();
  await servers?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
