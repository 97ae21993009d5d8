/**
 * The OAuth entities and APIv4 actions against REAL authorization servers (oidc-provider,
 * @node-oauth/oauth2-server): grants, the return route over HTTP with a scripted login, state rules,
 * landing URLs, tag linking, refresh (single-flight in one kernel and across two kernels on
 * PostgreSQL), recorded provider failures, redaction, contact-token row rules, session tokens.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { type Principal } from '../../../kernel';
import { cliContext, createDb, createKernel, createLogger } from '../../../host';
import { failure, bootTestKernel, type TestKernel } from '../../../host/testing';
import type { OAuthAccess } from '../../../plugins/oauth-client/bearer';
import type { OAuthStore, Row } from '../../../plugins/oauth-client/store';
import { sha256 } from '../../../plugins/oauth-client/hashes';
import type { SessionStore } from '../../../plugins/users';
import type { IdentityStore } from '../../../plugins/users';
import {
  OAUTH_BASE_PLUGINS,
  expectNoSecretsLogged,
  stopOAuthTest,
  O2S_CLIENT,
  O2S_USER,
  OIDC_CLIENT,
  OIDC_M2M_CLIENT,
  scriptedLogin,
  startOAuthServers,
  tempDataDir,
  testProviderRecords,
  writeTestProviders,
  type RunningOAuthServers,
} from '../../support/oauth-servers';

const PUBLIC = 'http://127.0.0.1:9';

const who = (permissions: string[], contactId: number | null = null, sessionHash?: string): Principal => ({
  contactId,
  userId: null,
  via: sessionHash ? 'session' : contactId ? 'api_key' : 'anonymous',
  permissions: new Set(permissions),
  attributes: sessionHash ? { sessionHash } : {},
});
const ADMIN = who(['*'], null);

describe('OAuth entities and APIv4 actions (real authorization servers)', function () {
  this.timeout(60000);
  let servers: RunningOAuthServers;
  let booted: TestKernel;
  let store: OAuthStore;
  let db: Knex;
  let dataDir: string;
  let oidcClientId: number;
  let tplClientId: number;
  let m2mClientId: number;
  let o2sClientId: number;
  let badSecretClientId: number;
  let downClientId: number;
  let user: { contactId: number; userId: number; cookie: string; hash: string; principal: Principal };
  let other: { contactId: number; userId: number; cookie: string; hash: string; principal: Principal };

  const call = (entity: string, action: string, params: Record<string, unknown> = {}, principal: Principal = ADMIN) =>
    booted.kernel.call({ version: 4, entity, action, params, principal }) as Promise<Row[]>;
  const tokensWhere = (storage: string, tag: string) => store.select(db, storage, { where: [['tag', '=', tag]] }, null);
  const count = async (table: string) => Number(((await db(table).count({ n: '*' })) as Array<{ n: string }>)[0].n);

  async function sessionUser(username: string, roles: string[]) {
    const identity = booted.kernel.container.resolve<IdentityStore>('identity');
    const sessions = booted.kernel.container.resolve<SessionStore>('sessions');
    const u = await identity.createUser(db, { username, password: 'a-long-password-1', roles });
    const cookie = await sessions.start(db, { contactId: u.contact_id, userId: u.id });
    const hash = sha256(cookie.split('.')[0]);
    return { contactId: u.contact_id, userId: u.id, cookie, hash, principal: who(['*'], u.contact_id, hash) };
  }

  /** authorizationCode → scripted login → GET /crm/oauth-client/return over HTTP with the given cookies. */
  async function codeFlow(params: Record<string, unknown>, opts: { principal?: Principal; cookie?: string } = {}) {
    const [start] = await call(
      'OAuthClient',
      'authorizationCode',
      { where: [['id', '=', oidcClientId]], ...params },
      opts.principal ?? user.principal,
    );
    const back = await scriptedLogin(String(start.url), OIDC_CLIENT.redirectUri);
    const http = await booted.http();
    const res = await http
      .get(`/crm/oauth-client/return${back.search}`)
      .set('Cookie', opts.cookie ?? `crm_session=${user.cookie}`);
    return { start, back, res };
  }

  before(async () => {
    servers = await startOAuthServers();
    dataDir = tempDataDir();
    const dir = path.join(dataDir, 'oauth-providers');
    writeTestProviders(servers, dir);
    const base = testProviderRecords(servers).oidc_local;
    writeFileSync(
      path.join(dir, 'oidc_tpl.test.json'),
      JSON.stringify({
        ...base,
        title: 'oidc with templates',
        tags: ['LaundryInstructions', 'MSRP'],
        contactTemplate: {
          values: { contact_type: 'Individual', first_name: '{{token.resource_owner.sub}}' },
          chain: {
            email: [
              'Email',
              'create',
              { values: { contact_id: '$id', email: '{{token.resource_owner.email|lowercase}}' } },
            ],
          },
        },
        mailSettingsTemplate: {
          name: '{{token.resource_owner.email}}',
          domain: '{{token.resource_owner.email|getMailDomain}}',
          localpart: null,
          'protocol:name': 'IMAP',
          server: 'imap.example.test',
          username: '{{token.resource_owner.email|getMailUser}}',
          password: null,
          is_ssl: true,
        },
      }),
    );
    booted = await bootTestKernel({
      plugins: [
        ...OAUTH_BASE_PLUGINS,
        'auth-session',
        'oauth-grant-authorization-code',
        'oauth-grant-password',
        'oauth-grant-client-credentials',
      ],
      config: {
        dataDir,
        server: { publicUrl: PUBLIC },
        pluginConfig: { 'oauth-client': { timeoutMs: 3000, landingUrls: ['https://partner.example/app/'] } },
      },
    });
    store = booted.kernel.container.resolve<OAuthStore>('oauthStore');
    db = booted.kernel.db;
    const mk = async (v: Row) => Number((await store.createClient(db, v)).id);
    oidcClientId = await mk({ provider: 'oidc_local', guid: OIDC_CLIENT.id, secret: OIDC_CLIENT.secret });
    tplClientId = await mk({ provider: 'oidc_tpl', guid: OIDC_CLIENT.id, secret: OIDC_CLIENT.secret });
    m2mClientId = await mk({ provider: 'oidc_m2m', guid: OIDC_M2M_CLIENT.id, secret: OIDC_M2M_CLIENT.secret });
    o2sClientId = await mk({ provider: 'o2s_local', guid: O2S_CLIENT.id, secret: O2S_CLIENT.secret });
    badSecretClientId = await mk({ provider: 'oidc_local', guid: OIDC_CLIENT.id, secret: 'not-the-secret' });
    downClientId = await mk({ provider: 'down_local', guid: 'x', secret: 'down-secret-77' });
    user = await sessionUser('ann', ['administrator']);
    other = await sessionUser('bob', ['administrator']);
  });

  after(() => stopOAuthTest(booted, servers, dataDir));

  // Nothing secret ever reaches a log line.
  afterEach(() => expectNoSecretsLogged(booted.logs, servers));

  describe('catalogue, providers, clients', () => {
    it('adds the five OAuth permissions through permissions.catalogue', () => {
      const cat = booted.kernel.container.resolve<ReadonlyMap<string, unknown>>('permissionCatalogue');
      for (const p of [
        'manage OAuth client',
        'manage OAuth client secrets',
        'create OAuth tokens via auth code flow',
        'manage my OAuth contact tokens',
        'manage all OAuth contact tokens',
      ]) {
        expect(cat.has(p), p).to.equal(true);
      }
    });

    it('OAuthProvider.get: where LIKE sorted DESC, CONTAINS on tags, select; getFields; needs access CRM', async () => {
      const rows = await call(
        'OAuthProvider',
        'get',
        { where: [['name', 'LIKE', 'oidc%']], orderBy: { name: 'DESC' } },
        who(['access CRM']),
      );
      expect(rows.map((r) => r.name)).to.deep.equal(['oidc_userinfo', 'oidc_tpl', 'oidc_m2m', 'oidc_local']);
      expect(rows[0].class).to.equal('generic');
      const tagged = await call(
        'OAuthProvider',
        'get',
        {
          where: [
            ['tags', 'CONTAINS', 'LaundryInstructions'],
            ['name', 'LIKE', 'oidc%'],
          ],
          select: ['name', 'title'],
        },
        who(['access CRM']),
      );
      expect(tagged).to.deep.equal([{ name: 'oidc_tpl', title: 'oidc with templates' }]);
      const all = await call(
        'OAuthProvider',
        'get',
        { where: [['tags', 'CONTAINS', 'LaundryInstructions']], select: ['name'] },
        who(['access CRM']),
      );
      expect(all.map((r) => r.name)).to.deep.equal(['oidc_tpl', 'test_example_2']);
      const fields = await call('OAuthProvider', 'getFields', {}, who(['access CRM']));
      expect(fields.map((f) => f.name)).to.include.members([
        'name',
        'title',
        'class',
        'options',
        'tags',
        'contactTemplate',
        'mailSettingsTemplate',
        'templates',
      ]);
      expect((await failure(call('OAuthProvider', 'get', {}, who([], 5)))).code).to.equal('E_FORBIDDEN');
      expect(
        (await failure(call('OAuthProvider', 'get', { where: [['secret', '=', 1]] }, who(['access CRM'])))).code,
      ).to.equal('E_INVALID_PARAMS');
    });

    it('declares the entities as APIv4-only metadata with the permission maps and secret fields', () => {
      const entities =
        booted.kernel.container.resolve<import('../../../plugins/entity-core').EntityRegistry>('entities');
      for (const e of ['OAuthClient', 'OAuthSysToken', 'OAuthContactToken', 'OAuthSessionToken', 'MailSettings'])
        expect(entities.get(e).apis).to.deep.equal([4]);
      expect(entities.names(3)).not.to.include('OAuthClient');
      const client = entities.get('OAuthClient');
      for (const f of ['secret', 'options', 'tenant'])
        expect(client.byName.get(f)!.secret).to.deep.equal(['manage OAuth client']);
      for (const f of ['access_token', 'refresh_token', 'raw'])
        expect(entities.get('OAuthSysToken').byName.get(f)!.secret).to.deep.equal(['manage OAuth client secrets']);
      expect(entities.get('OAuthSysToken').permissions!.create).to.equal('manage OAuth client secrets');
      expect(entities.get('OAuthContactToken').byName.get('scopes')!.serialize).to.equal(true);
    });

    it('refuses a client with an unknown provider; redacts secret, options and tenant without manage OAuth client', async () => {
      const err = await failure(store.createClient(db, { provider: 'nope', guid: 'g' }));
      expect(err.code).to.equal('E_OAUTH_PROVIDER_UNKNOWN');
      expect(err.message).to.match(/^Invalid provider name: nope \(known: .*oidc_local.*oauth-providers-grant/);
      const [row] = await store.select(db, 'OAuthClient', { where: [['id', '=', oidcClientId]] }, null);
      expect(row.secret).to.equal(OIDC_CLIENT.secret);
      const limited = store.redact(
        'OAuthClient',
        { ...row, tenant: 't1', options: { a: 1 } },
        who(['manage my OAuth contact tokens'], 3),
      );
      expect(limited).to.include({ id: oidcClientId, guid: OIDC_CLIENT.id, provider: 'oidc_local' });
      expect(limited).not.to.have.any.keys('secret', 'options', 'tenant');
      expect(store.redact('OAuthClient', row, who(['manage OAuth client']))).to.have.property(
        'secret',
        OIDC_CLIENT.secret,
      );
    });
  });

  describe('OAuthClient.authorizationCode', () => {
    it('one row with the provider URL: response_type, client_id, redirect_uri, scope and separator, state, PKCE S256, prompt', async () => {
      const rows = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]] },
        user.principal,
      );
      expect(rows).to.have.length(1);
      expect(rows[0].response_mode).to.equal('query');
      const url = new URL(String(rows[0].url));
      expect(url.origin + url.pathname).to.equal(servers.oidc.authorizeUrl);
      const query = url.searchParams;
      expect(query.get('response_type')).to.equal('code');
      expect(query.get('client_id')).to.equal(OIDC_CLIENT.id);
      expect(query.get('redirect_uri')).to.equal(`${PUBLIC}/crm/oauth-client/return`);
      expect(query.get('scope')).to.equal('openid email offline_access');
      expect(query.get('state')).to.match(/^CC_[a-zA-Z0-9]+$/);
      expect(query.get('code_challenge_method')).to.equal('S256');
      expect(query.get('prompt')).to.equal('consent');
      expect(query.has('response_mode')).to.equal(false);
      const state = await db('crm_oauth_state')
        .where({ id: query.get('state') })
        .first();
      expect(state.session_hash).to.equal(user.hash);
      const one = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]], scopes: 'openid', prompt: 'none' },
        user.principal,
      );
      expect(new URL(String(one[0].url)).searchParams.get('scope')).to.equal('openid');
      expect(new URL(String(one[0].url)).searchParams.get('prompt')).to.equal('none');
    });

    it('reference examples: default scopes joined by ",", bad response mode, web_message with response_origin, continue_url', async () => {
      const ex1 = Number((await store.createClient(db, { provider: 'test_example_1', guid: 'example-id' })).id);
      const ex3 = Number((await store.createClient(db, { provider: 'test_example_3', guid: 'example-id' })).id);
      const [r1] = await call('OAuthClient', 'authorizationCode', { where: [['id', '=', ex1]] }, user.principal);
      const u1 = new URL(String(r1.url));
      expect(u1.host + u1.pathname).to.equal('example.com/one/auth');
      expect(u1.searchParams.get('scope')).to.equal('scope-1-foo,scope-1-bar');
      expect(u1.searchParams.get('client_id')).to.equal('example-id');
      expect(u1.searchParams.get('redirect_uri')).to.contain('/crm/oauth-client/return');
      const [r1b] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', ex1]], scopes: 'scope-1-bar' },
        user.principal,
      );
      expect(new URL(String(r1b.url)).searchParams.get('scope')).to.equal('scope-1-bar');
      const err = await failure(
        call(
          'OAuthClient',
          'authorizationCode',
          { where: [['id', '=', ex1]], responseMode: 'web_message' },
          user.principal,
        ),
      );
      expect(err.message).to.equal('Unsupported response mode: web_message');
      const [r3] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', ex3]], responseMode: 'web_message' },
        user.principal,
      );
      const u3 = new URL(String(r3.url));
      expect(r3.response_mode).to.equal('web_message');
      expect(u3.searchParams.get('response_mode')).to.equal('web_message');
      expect(r3.response_origin).to.equal('https://example.com');
      expect(r3.continue_url).to.equal(u3.searchParams.get('redirect_uri'));
    });

    it('needs exactly one client: missing, ambiguous, or chosen by provider + orderBy + limit 1', async () => {
      let err = await failure(
        call('OAuthClient', 'authorizationCode', { where: [['id', '=', 99999]] }, user.principal),
      );
      expect(err.code).to.equal('E_OAUTH_CLIENT_NOT_FOUND');
      expect(err.message).to.equal('OAuth: Failed to locate client. Expected 1 client, but found 0 clients.');
      err = await failure(
        call('OAuthClient', 'authorizationCode', { where: [['provider', '=', 'oidc_local']] }, user.principal),
      );
      expect(err.message).to.equal('OAuth: Failed to locate client. Expected 1 client, but found 2 clients.');
      const [row] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['provider', '=', 'oidc_local']], orderBy: { id: 'ASC' }, limit: 1 },
        user.principal,
      );
      expect(new URL(String(row.url)).searchParams.get('client_id')).to.equal(OIDC_CLIENT.id);
    });

    it('refuses bad input clearly, writing no state', async () => {
      const before = await count('crm_oauth_state');
      const cases: Array<[Record<string, unknown>, string, RegExp]> = [
        [{ storage: 'OAuthFooToken' }, 'E_INVALID_PARAMS', /^Invalid token storage \(OAuthFooToken\)$/],
        [{ responseMode: 'web_message' }, 'E_OAUTH_CLIENT_INVALID', /^Unsupported response mode: web_message$/],
        [{ landingUrl: 'https://evil.example/steal' }, 'E_OAUTH_LANDING', /Unsupported landing URL/],
        [{ landingUrl: '//evil.example/x' }, 'E_OAUTH_LANDING', /Unsupported landing URL/],
        [{ landingUrl: 'javascript:alert(1)' }, 'E_OAUTH_LANDING', /Unsupported landing URL/],
        [{ landingUrl: 'https://partner.example/other' }, 'E_OAUTH_LANDING', /Unsupported landing URL/],
        [{ landingUrl: `http://user:pw@127.0.0.1:9/x` }, 'E_OAUTH_LANDING', /Unsupported landing URL/],
      ];
      for (const [params, code, msg] of cases) {
        const err = await failure(
          call('OAuthClient', 'authorizationCode', { where: [['id', '=', oidcClientId]], ...params }, user.principal),
        );
        expect(err.code, JSON.stringify(params)).to.equal(code);
        expect(err.message).to.match(msg);
      }
      expect(await count('crm_oauth_state')).to.equal(before);
      expect(
        (
          await failure(
            call('OAuthClient', 'authorizationCode', { where: [['id', '=', oidcClientId]] }, who(['access CRM'], 4)),
          )
        ).code,
      ).to.equal('E_FORBIDDEN');
      // The allow-list and the own origin are accepted.
      await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]], landingUrl: 'https://partner.example/app/done' },
        user.principal,
      );
      await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]], landingUrl: '/crm/after' },
        user.principal,
      );
    });
  });

  describe('the return route (authorization code end to end over HTTP)', () => {
    it('exchanges the code, stores a system token and redirects to the landing URL; the state is single-use', async () => {
      const { res, back } = await codeFlow({ tag: 'flow-sys', landingUrl: '/crm/after' });
      expect(res.status).to.equal(302);
      expect(res.headers.location).to.equal(`${PUBLIC}/crm/after`);
      const [tok] = await tokensWhere('OAuthSysToken', 'flow-sys');
      expect(tok).to.include({
        grant_type: 'authorization_code',
        token_type: 'Bearer',
        resource_owner_name: 'alice@example.test',
        client_id: oidcClientId,
      });
      expect(tok.access_token).to.be.a('string').and.not.be.empty;
      expect(tok.refresh_token).to.be.a('string').and.not.be.empty;
      expect(tok.scopes).to.include.members(['openid', 'email']);
      expect(tok.expires).to.be.greaterThan(Date.now() / 1000);
      expect((tok.resource_owner as Row).email).to.equal('alice@example.test');
      expect(JSON.stringify(tok.raw)).not.to.contain(String(tok.access_token));
      // Replay: nothing more is written.
      const replay = await (
        await booted.http()
      )
        .get(`/crm/oauth-client/return${back.search}`)
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(replay.status).to.equal(400);
      expect(replay.text).to.contain('OAuth: Received invalid or expired state');
      expect(await tokensWhere('OAuthSysToken', 'flow-sys')).to.have.length(1);
    });

    it('runs as an internal action: bindings and chains cannot reach it, catalogues do not list it', async () => {
      const [start] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]] },
        user.principal,
      );
      const state = new URL(String(start.url)).searchParams.get('state')!;
      // What every binding does (no internal flag): not found, even for an administrator; state kept.
      const viaBinding = await failure(
        call('OAuthClient', 'authorizationCodeReturn', { state, code: 'abc' }, user.principal),
      );
      expect(viaBinding.code).to.equal('E_ACTION_NOT_FOUND');
      expect(booted.kernel.api.actions({ version: 4, entity: 'OAuthClient' }).map((a) => a.action)).not.to.include(
        'authorizationCodeReturn',
      );
      expect(await booted.kernel.api.can('OAuthClient', 'authorizationCodeReturn', ADMIN, { version: 4 })).to.equal(
        false,
      );
      expect(await db('crm_oauth_state').where({ id: state }).first()).to.not.equal(undefined);
      // In-process with the flag, authorization still runs in the pipeline.
      const forbidden = await failure(
        booted.kernel.call({
          version: 4,
          entity: 'OAuthClient',
          action: 'authorizationCodeReturn',
          params: { state, code: 'abc' },
          principal: who(['access CRM'], user.contactId, user.hash),
          internal: true,
        }),
      );
      expect(forbidden.code).to.equal('E_FORBIDDEN');
      expect(await db('crm_oauth_state').where({ id: state }).first()).to.not.equal(undefined);
    });

    it('refuses a tampered, expired or foreign state with a clear page and writes nothing', async () => {
      const http = await booted.http();
      const before = await count('crm_oauth_systoken');
      const tampered = await http
        .get('/crm/oauth-client/return?code=abc&state=CC_doesnotexist123')
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(tampered.status).to.equal(400);
      expect(tampered.text).to.contain('Received invalid or expired state');
      const junk = await http
        .get('/crm/oauth-client/return?code=abc&state=%3Cscript%3E')
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(junk.status).to.equal(400);
      expect(junk.text).not.to.contain('<script>');

      const [start] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]], tag: 'never' },
        user.principal,
      );
      const state = new URL(String(start.url)).searchParams.get('state')!;
      // Another session, or none, cannot use it (and does not burn it).
      expect(
        (
          await http
            .get(`/crm/oauth-client/return?code=abc&state=${state}`)
            .set('Cookie', `crm_session=${other.cookie}`)
        ).status,
      ).to.equal(400);
      // Without a session the caller is anonymous, whose role lacks the permission: refused by the
      // pipeline before the state is looked at.
      const anonymous = await http.get(`/crm/oauth-client/return?code=abc&state=${state}`);
      expect(anonymous.status).to.equal(401);
      expect(anonymous.text).to.contain('create OAuth tokens via auth code flow');
      expect(await db('crm_oauth_state').where({ id: state }).first()).to.not.equal(undefined);
      // Expired (past its ttl): refused and removed.
      await db('crm_oauth_state')
        .where({ id: state })
        .update({ expires_at: db.raw("now() - interval '1 second'") });
      const expired = await http
        .get(`/crm/oauth-client/return?code=abc&state=${state}`)
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(expired.status).to.equal(400);
      expect(expired.text).to.contain('Received invalid or expired state');
      expect(await db('crm_oauth_state').where({ id: state }).first()).to.equal(undefined);
      expect(await count('crm_oauth_systoken')).to.equal(before);
    });

    it("shows the provider's error and description escaped, and a refused exchange (wrong secret) plainly", async () => {
      const http = await booted.http();
      const [start] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', oidcClientId]] },
        user.principal,
      );
      const state = new URL(String(start.url)).searchParams.get('state')!;
      const res = await http
        .get(
          `/crm/oauth-client/return?state=${state}&error=access_denied` +
            `&error_description=${encodeURIComponent('<script>alert(1)</script> The user declined.')}`,
        )
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(res.status).to.equal(400);
      expect(res.headers['content-type']).to.match(/text\/html/);
      expect(res.text).to.contain('access_denied');
      expect(res.text).to.contain('&lt;script&gt;alert(1)&lt;/script&gt; The user declined.');
      expect(res.text).not.to.contain('<script>');

      const before = await count('crm_oauth_systoken');
      const [bad] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', badSecretClientId]], tag: 'bad-secret' },
        user.principal,
      );
      const back = await scriptedLogin(String(bad.url), OIDC_CLIENT.redirectUri);
      const refused = await http
        .get(`/crm/oauth-client/return${back.search}`)
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(refused.status).to.equal(400);
      expect(refused.text).to.contain('invalid_client');
      expect(refused.text).not.to.contain('not-the-secret');
      expect(await count('crm_oauth_systoken')).to.equal(before);
    });

    it('links contact tokens by tag: none → the caller, linkContact:<id>, nullContactId, createContact from contactTemplate', async () => {
      await codeFlow({ storage: 'OAuthContactToken', tag: null });
      const mine = await store.select(db, 'OAuthContactToken', { orderBy: { id: 'DESC' }, limit: 1 }, null);
      expect(mine[0].contact_id).to.equal(user.contactId);

      await codeFlow({ storage: 'OAuthContactToken', tag: `linkContact:${other.contactId}` });
      expect((await tokensWhere('OAuthContactToken', `linkContact:${other.contactId}`))[0].contact_id).to.equal(
        other.contactId,
      );

      await codeFlow({ storage: 'OAuthContactToken', tag: 'nullContactId' });
      expect((await tokensWhere('OAuthContactToken', 'nullContactId'))[0].contact_id).to.equal(null);

      const contactsBefore = await count('crm_contact');
      const [start] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', tplClientId]], storage: 'OAuthContactToken', tag: 'createContact' },
        user.principal,
      );
      const back = await scriptedLogin(String(start.url), OIDC_CLIENT.redirectUri);
      const res = await (
        await booted.http()
      )
        .get(`/crm/oauth-client/return${back.search}`)
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(res.status).to.equal(200);
      expect(res.text).to.contain('OAuth Token Created');
      const [created] = await tokensWhere('OAuthContactToken', 'createContact');
      expect(await count('crm_contact')).to.equal(contactsBefore + 1);
      expect(created.contact_id).to.not.equal(null);
      expect(created.contact_id).to.not.equal(user.contactId);
      const email = await db('crm_email').where({ contact_id: created.contact_id }).first('email');
      expect(email.email).to.equal('alice@example.test');
      const contact = await db('crm_contact').where({ id: created.contact_id }).first('first_name');
      expect(contact.first_name).to.equal('alice');
    });

    it('binds a sessionless start to the first browser opening the start link (cookie), for an anonymous return', async () => {
      const identity = booted.kernel.container.resolve<IdentityStore>('identity');
      await identity.grantPermissions(db, 'anonymous', ['create OAuth tokens via auth code flow']);
      try {
        const [start] = await call(
          'OAuthClient',
          'authorizationCode',
          {
            where: [['id', '=', oidcClientId]],
            storage: 'OAuthContactToken',
            tag: 'nullContactId',
            landingUrl: 'https://partner.example/app/thanks',
          },
          who(['*'], null),
        );
        const link = new URL(String(start.url));
        expect(link.origin + link.pathname).to.equal(`${PUBLIC}/crm/oauth-client/start`);
        const http = await booted.http();
        const go = await http.get(link.pathname + link.search);
        expect(go.status).to.equal(302);
        expect(String(go.headers.location)).to.match(new RegExp(`^${servers.oidc.authorizeUrl}`));
        const state = link.searchParams.get('state')!;
        const cookie = (go.headers['set-cookie'] as unknown as string[]).find((c) =>
          c.startsWith(`crm_oauth_${state}=`),
        )!;
        expect(cookie).to.match(/httponly/i);
        // A second browser cannot claim it.
        expect((await (await booted.http()).get(link.pathname + link.search)).status).to.equal(400);
        const back = await scriptedLogin(String(go.headers.location), OIDC_CLIENT.redirectUri);
        // Without the cookie: refused (and not burnt).
        expect((await (await booted.http()).get(`/crm/oauth-client/return${back.search}`)).status).to.equal(400);
        const res = await (
          await booted.http()
        )
          .get(`/crm/oauth-client/return${back.search}`)
          .set('Cookie', cookie.split(';')[0]);
        expect(res.status).to.equal(302);
        expect(res.headers.location).to.equal('https://partner.example/app/thanks');
      } finally {
        await identity.revokePermissions(db, 'anonymous', ['create OAuth tokens via auth code flow']);
      }
    });

    it('mail setup: a MailSettings:setup token creates the mail account from the template and is retagged', async () => {
      const [start] = await call(
        'OAuthClient',
        'authorizationCode',
        { where: [['id', '=', tplClientId]], tag: 'MailSettings:setup' },
        user.principal,
      );
      const back = await scriptedLogin(String(start.url), OIDC_CLIENT.redirectUri);
      const res = await (
        await booted.http()
      )
        .get(`/crm/oauth-client/return${back.search}`)
        .set('Cookie', `crm_session=${user.cookie}`);
      expect(res.status).to.equal(200);
      expect(res.text).to.contain('Account created!');
      const mail = await store.select(db, 'MailSettings', { orderBy: { id: 'DESC' }, limit: 1 }, null);
      expect(mail[0]).to.include({
        name: 'alice@example.test',
        domain: 'example.test',
        username: 'alice',
        protocol: 'IMAP',
        server: 'imap.example.test',
        is_ssl: 1,
        auth: 'XOAuth2',
      });
      expect(await tokensWhere('OAuthSysToken', 'MailSettings:setup')).to.have.length(0);
      expect(await tokensWhere('OAuthSysToken', `MailSettings:${String(mail[0].id)}`)).to.have.length(1);
    });
  });

  describe('password and client credential grants', () => {
    it('userPassword stores a token; full record only with manage OAuth client secrets', async () => {
      const full = await call('OAuthClient', 'userPassword', {
        where: [['id', '=', o2sClientId]],
        username: O2S_USER.username,
        password: O2S_USER.password,
        tag: 'pw-1',
      });
      expect(full).to.have.length(1);
      expect(full[0]).to.include({ grant_type: 'password', tag: 'pw-1', resource_owner_name: 'alice@example.test' });
      expect(full[0].access_token).to.be.a('string');
      const limited = await call(
        'OAuthClient',
        'userPassword',
        { where: [['id', '=', o2sClientId]], username: O2S_USER.username, password: O2S_USER.password, tag: 'pw-2' },
        who(['manage OAuth client'], 3),
      );
      expect(Object.keys(limited[0]).sort()).to.deep.equal(['client_id', 'expires', 'id', 'tag']);
      const [stored] = await tokensWhere('OAuthSysToken', 'pw-2');
      expect(stored.access_token).to.be.a('string').and.not.be.empty;
    });

    it('clientCredential and its clientCredentials alias store client_credentials tokens', async () => {
      for (const action of ['clientCredential', 'clientCredentials']) {
        const [row] = await call('OAuthClient', action, {
          where: [['id', '=', m2mClientId]],
          scopes: ['api:read'],
          tag: `cc-${action}`,
        });
        expect(row).to.include({ grant_type: 'client_credentials', tag: `cc-${action}` });
        expect(row.scopes).to.deep.equal(['api:read']);
        expect(row.refresh_token).to.equal(null);
      }
    });

    it('bad input fails and writes nothing: wrong password, wrong secret, provider down, missing client, unknown storage', async () => {
      const before = await count('crm_oauth_systoken');
      let err = await failure(
        call('OAuthClient', 'userPassword', {
          where: [['id', '=', o2sClientId]],
          username: O2S_USER.username,
          password: 'wrong-password-x',
        }),
      );
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.message).to.contain('invalid_grant');
      err = await failure(call('OAuthClient', 'clientCredential', { where: [['id', '=', badSecretClientId]] }));
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.message).not.to.contain('not-the-secret');
      err = await failure(call('OAuthClient', 'clientCredential', { where: [['id', '=', downClientId]] }));
      expect(err.code).to.equal('E_OAUTH_UNREACHABLE');
      expect(err.message).not.to.contain('down-secret-77');
      err = await failure(call('OAuthClient', 'clientCredential', { where: [['guid', '=', 'nobody']] }));
      expect(err.code).to.equal('E_OAUTH_CLIENT_NOT_FOUND');
      err = await failure(
        call('OAuthClient', 'clientCredential', { where: [['id', '=', m2mClientId]], storage: 'Elsewhere' }),
      );
      expect(err.message).to.equal('Invalid token storage (Elsewhere)');
      err = await failure(
        call(
          'OAuthClient',
          'clientCredential',
          { where: [['id', '=', m2mClientId]], storage: 'OAuthSessionToken' },
          who(['*'], 3),
        ),
      );
      expect(err.code).to.equal('E_OAUTH_NO_SESSION');
      expect(await count('crm_oauth_systoken')).to.equal(before);
      expect(booted.logs.join('\n')).not.to.contain('down-secret-77');
    });
  });

  describe('refresh', () => {
    const pw = (tag: string, extra: Record<string, unknown> = {}, principal: Principal = ADMIN) =>
      call(
        'OAuthClient',
        'userPassword',
        { where: [['id', '=', o2sClientId]], username: O2S_USER.username, password: O2S_USER.password, tag, ...extra },
        principal,
      ).then((r) => r[0]);
    const issued = () => servers.o2s.tokens.byAccess.size;

    it('skips fresh tokens, forces with -1, refreshes expires 0, honours threshold; the rotated refresh token is kept', async () => {
      const tok = await pw('r-rules');
      const where = [['id', '=', tok.id]];
      let [row] = await call('OAuthSysToken', 'refresh', { where });
      expect(row.access_token).to.equal(tok.access_token);
      [row] = await call('OAuthSysToken', 'refresh', { where, threshold: 7200 });
      expect(row.access_token).to.not.equal(tok.access_token);
      const second = row;
      [row] = await call('OAuthSysToken', 'refresh', { where, threshold: -1 });
      expect(row.access_token).to.not.equal(second.access_token);
      expect(row.refresh_token).to.not.equal(second.refresh_token);
      expect(servers.o2s.tokens.byRefresh.has(String(second.refresh_token))).to.equal(false);
      await db('crm_oauth_systoken').where({ id: tok.id }).update({ expires: 0 });
      const [again] = await call('OAuthSysToken', 'refresh', { where });
      expect(again.access_token).to.not.equal(row.access_token);
      expect(again.expires).to.be.greaterThan(Date.now() / 1000 + 3000);
      // Redacted for manage OAuth client alone.
      const [limited] = await call('OAuthSysToken', 'refresh', { where }, who(['manage OAuth client'], 3));
      expect(Object.keys(limited).sort()).to.deep.equal(['client_id', 'expires', 'id', 'tag']);
    });

    it('single-flight in one kernel: concurrent refreshes of a due token make one provider call and all get the new token', async () => {
      const tok = await pw('r-race');
      await db('crm_oauth_systoken')
        .where({ id: tok.id })
        .update({ expires: Math.floor(Date.now() / 1000) + 10 });
      const before = issued();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => call('OAuthSysToken', 'refresh', { where: [['id', '=', tok.id]] })),
      );
      expect(issued() - before).to.equal(1);
      const tokens = new Set(results.map((r) => r[0].access_token));
      expect(tokens.size).to.equal(1);
      expect([...tokens][0]).to.not.equal(tok.access_token);
      const [stored] = await tokensWhere('OAuthSysToken', 'r-race');
      expect(servers.o2s.tokens.byRefresh.has(String(stored.refresh_token))).to.equal(true);
      // The bearer helper joins in too: fresh now, so no call.
      const access = booted.kernel.container.resolve<OAuthAccess>('oauthAccess');
      const bearer = await access.bearer({ tag: 'r-race' });
      expect(bearer.headers.Authorization).to.equal(`Bearer ${String(stored.access_token)}`);
      expect(issued() - before).to.equal(1);
    });

    it('oauthAccess.bearer refreshes a due token (by tag, most recent first) and returns the Authorization header', async () => {
      await pw('r-bearer');
      const tok = await pw('r-bearer');
      await db('crm_oauth_systoken')
        .where({ id: tok.id })
        .update({ expires: Math.floor(Date.now() / 1000) + 5 });
      const before = issued();
      const bearer = await booted.kernel.container.resolve<OAuthAccess>('oauthAccess').bearer({ tag: 'r-bearer' });
      expect(issued() - before).to.equal(1);
      expect(bearer.tokenId).to.equal(tok.id);
      expect(bearer.accessToken).to.not.equal(tok.access_token);
      expect(bearer.headers).to.deep.equal({ Authorization: `Bearer ${bearer.accessToken}` });
      expect(servers.o2s.tokens.byAccess.has(bearer.accessToken)).to.equal(true);
      expect(
        (await failure(booted.kernel.container.resolve<OAuthAccess>('oauthAccess').bearer({ tag: 'no-such-tag' })))
          .code,
      ).to.equal('E_NOT_FOUND');
    });

    it('single-flight across two kernels on the same PostgreSQL database', async function () {
      if (!process.env.DATABASE_URL) return this.skip(); // PGlite is one in-process connection: there is no second instance to race.
      const log = createLogger({ level: 'warn', destination: { write: () => true } as never });
      const k2 = await createKernel({ config: booted.config, log, db: createDb(booted.config), migrate: false });
      try {
        const tok = await pw('r-two');
        await db('crm_oauth_systoken')
          .where({ id: tok.id })
          .update({ expires: Math.floor(Date.now() / 1000) + 10 });
        const before = issued();
        const req = (k: typeof k2) =>
          k.call({
            version: 4,
            entity: 'OAuthSysToken',
            action: 'refresh',
            params: { where: [['id', '=', tok.id]] },
            principal: ADMIN,
          }) as Promise<Row[]>;
        const results = await Promise.all([req(booted.kernel), req(k2), req(booted.kernel), req(k2)]);
        expect(issued() - before).to.equal(1);
        expect(new Set(results.map((r) => r[0].access_token)).size).to.equal(1);
        const [stored] = await tokensWhere('OAuthSysToken', 'r-two');
        expect(servers.o2s.tokens.byRefresh.has(String(stored.refresh_token))).to.equal(true);
      } finally {
        await k2.close();
      }
    });

    it('records a provider failure on the token, goes on with the batch, and clears it on a later success', async () => {
      const good = await pw('r-batch');
      const bad = await pw('r-batch');
      const [{ refresh_token: savedRefresh, access_token: badAccess }] = await store.select(
        db,
        'OAuthSysToken',
        { where: [['id', '=', bad.id]] },
        null,
      );
      await db('crm_oauth_systoken').where({ id: bad.id }).update({ refresh_token: 'revoked-refresh-token' });
      const rows = await call('OAuthSysToken', 'refresh', { where: [['tag', '=', 'r-batch']], threshold: -1 });
      expect(rows.map((r) => r.id)).to.deep.equal([good.id]);
      let [stored] = await store.select(db, 'OAuthSysToken', { where: [['id', '=', bad.id]] }, null);
      expect(stored.access_token).to.equal(badAccess);
      const error = stored.error as Row;
      expect(error.error).to.equal('invalid_grant');
      expect(error.error_description).to.be.a('string').and.not.be.empty;
      expect(error.time).to.be.a('number');
      // Only the failing token selected: the caller hears why.
      const err = await failure(call('OAuthSysToken', 'refresh', { where: [['id', '=', bad.id]], threshold: -1 }));
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      await db('crm_oauth_systoken').where({ id: bad.id }).update({ refresh_token: savedRefresh });
      await call('OAuthSysToken', 'refresh', { where: [['id', '=', bad.id]], threshold: -1 });
      [stored] = await store.select(db, 'OAuthSysToken', { where: [['id', '=', bad.id]] }, null);
      expect(stored.error).to.equal(null);
    });

    it('a token without refresh_token (or a provider that is down) is a clear error; nothing half-written', async () => {
      const [cc] = await call('OAuthClient', 'clientCredential', {
        where: [['id', '=', m2mClientId]],
        tag: 'r-norefresh',
      });
      const err = await failure(call('OAuthSysToken', 'refresh', { where: [['id', '=', cc.id]], threshold: -1 }));
      expect(err.code).to.equal('E_OAUTH_NO_REFRESH_TOKEN');
      const [stored] = await tokensWhere('OAuthSysToken', 'r-norefresh');
      expect(stored.error).to.equal(null);
      expect(stored.access_token).to.equal(cc.access_token);
      // Bearer: still valid, so handed out as is.
      const bearer = await booted.kernel.container.resolve<OAuthAccess>('oauthAccess').bearer({ id: Number(cc.id) });
      expect(bearer.accessToken).to.equal(cc.access_token);
      // Provider down: recorded as unreachable.
      const tok = await pw('r-down');
      await db('crm_oauth_systoken').where({ id: tok.id }).update({ client_id: downClientId });
      const down = await failure(call('OAuthSysToken', 'refresh', { where: [['id', '=', tok.id]], threshold: -1 }));
      expect(down.code).to.equal('E_OAUTH_UNREACHABLE');
      const [rec] = await tokensWhere('OAuthSysToken', 'r-down');
      expect((rec.error as Row).error).to.equal('unreachable');
      expect(rec.access_token).to.equal(tok.access_token);
    });

    it('refreshes contact and session tokens; session tokens are per session and go when the session ends', async () => {
      const contactToken = await pw('r-contact', { storage: 'OAuthContactToken' }, user.principal);
      const [cr] = await call(
        'OAuthContactToken',
        'refresh',
        { where: [['id', '=', contactToken.id]], threshold: -1 },
        who(['manage my OAuth contact tokens', 'view my contact', 'edit my contact'], user.contactId),
      );
      expect(cr.access_token).to.not.equal(contactToken.access_token);
      expect(cr.contact_id).to.equal(user.contactId);
      // Someone else's "my" permission does not reach it.
      expect(
        await call(
          'OAuthContactToken',
          'refresh',
          { where: [['id', '=', contactToken.id]], threshold: -1 },
          who(['manage my OAuth contact tokens', 'view my contact'], other.contactId),
        ),
      ).to.deep.equal([]);

      const sessionToken = await pw('r-session', { storage: 'OAuthSessionToken' }, user.principal);
      const [sr] = await call(
        'OAuthSessionToken',
        'refresh',
        { where: [['id', '=', sessionToken.id]], threshold: -1 },
        user.principal,
      );
      expect(sr.access_token).to.not.equal(sessionToken.access_token);
      expect(
        await call(
          'OAuthSessionToken',
          'refresh',
          { where: [['id', '=', sessionToken.id]], threshold: -1 },
          other.principal,
        ),
      ).to.deep.equal([]);
      const sessions = booted.kernel.container.resolve<SessionStore>('sessions');
      const temp = await sessionUser(`tmp-${randomBytes(3).toString('hex')}`, ['administrator']);
      await pw('r-session-end', { storage: 'OAuthSessionToken' }, temp.principal);
      expect(await tokensWhere('OAuthSessionToken', 'r-session-end')).to.have.length(1);
      await sessions.end(db, temp.cookie);
      expect(await tokensWhere('OAuthSessionToken', 'r-session-end')).to.have.length(0);
    });
  });

  describe('session binding and entity lifecycles (what the generic APIv4 actions will run)', () => {
    it('auth-session puts the session id hash on the principal', async () => {
      const { authCredential } = await import('../../../host');
      const res = await booted.kernel.hooks.run(authCredential, {
        method: 'GET',
        path: '/x',
        ip: '127.0.0.1',
        headers: {},
        query: {},
        body: {},
        accepts: ['session'],
        route: 't:x',
        cookie: (name: string) => (name === 'crm_session' ? user.cookie : undefined),
      });
      expect(res && 'accept' in res ? res.accept.attributes?.sessionHash : null).to.equal(user.hash);
    });

    it('OAuthClient create checks the provider; OAuthContactToken create applies tag rules; OAuthSessionToken is per session', async () => {
      const entities =
        booted.kernel.container.resolve<import('../../../plugins/entity-core').EntityRegistry>('entities');
      const run = async (entity: string, values: Row, principal: Principal) => {
        let out: Row = values;
        for (const hooks of entities.get(entity).lifecycle) {
          if (hooks.beforeSave)
            out = ((await hooks.beforeSave(out, {
              db,
              principal,
              params: values,
              existing: null,
              entities: booted.kernel.container
                .resolve<import('../../../plugins/entity-core').EntityService>('entityService')
                .bind({ db, principal, trusted: true }),
            })) ?? out) as Row;
        }
        return out;
      };
      expect((await failure(run('OAuthClient', { provider: 'nope', guid: 'g' }, ADMIN))).message).to.match(
        /^Invalid provider name: nope \(known: /,
      );
      expect(
        (await run('OAuthContactToken', { tag: `linkContact:${other.contactId}` }, user.principal)).contact_id,
      ).to.equal(other.contactId);
      expect((await run('OAuthContactToken', { tag: 'nullContactId' }, user.principal)).contact_id).to.equal(null);
      expect((await run('OAuthContactToken', { tag: 'x' }, user.principal)).contact_id).to.equal(user.contactId);
      expect((await run('OAuthContactToken', { tag: 'x', contact_id: 5 }, user.principal)).contact_id).to.equal(5);
      expect((await run('OAuthSessionToken', { tag: 's' }, user.principal)).session_hash).to.equal(user.hash);
      expect((await failure(run('OAuthSessionToken', { tag: 's' }, who(['*'], 3)))).code).to.equal(
        'E_OAUTH_NO_SESSION',
      );
      const get = entities.get('OAuthSessionToken').lifecycle.find((l) => l.beforeGet)!.beforeGet!;
      expect(get({}, { principal: other.principal })).to.deep.equal({
        where: [{ path: 'session_hash', op: '=', value: other.hash }],
      });
    });
  });

  describe('contact-token row rules (entity.access)', () => {
    let mineId: number;
    let theirsId: number;
    before(async () => {
      const rec = {
        client_id: o2sClientId,
        grant_type: 'password',
        tag: 'rows',
        scopes: ['profile', 'mail'],
        token_type: 'Bearer',
        access_token: 'x',
        refresh_token: null,
        expires: null,
        resource_owner_name: null,
        resource_owner: null,
        raw: {},
      };
      const noContact = async () => {
        throw new Error('no');
      };
      mineId = Number(
        (
          await store.saveToken(db, 'OAuthContactToken', rec, {
            callerContactId: null,
            contactId: user.contactId,
            createContact: noContact,
          })
        ).id,
      );
      theirsId = Number(
        (
          await store.saveToken(
            db,
            'OAuthContactToken',
            { ...rec, scopes: ['profile'] },
            { callerContactId: null, contactId: other.contactId, createContact: noContact },
          )
        ).id,
      );
      // A token without a contact: invisible through the permissioned API.
      await store.saveToken(
        db,
        'OAuthContactToken',
        { ...rec, scopes: ['profile'] },
        { callerContactId: null, contactId: null, createContact: noContact },
      );
    });
    const visible = async (p: Principal) =>
      (await store.selectTokens(db, 'OAuthContactToken', { where: [['tag', '=', 'rows']] }, p)).map((r) => r.id);

    it('manage all + view all contacts sees all; manage my sees its own; manage all without contact access sees none', async () => {
      expect(
        await visible(who(['manage all OAuth contact tokens', 'view all contacts'], user.contactId)),
      ).to.deep.equal([mineId, theirsId]);
      expect(await visible(who(['manage my OAuth contact tokens', 'view my contact'], user.contactId))).to.deep.equal([
        mineId,
      ]);
      expect(await visible(who(['manage all OAuth contact tokens'], user.contactId))).to.deep.equal([]);
      expect(await visible(who(['view all contacts'], user.contactId))).to.deep.equal([]);
      // CONTAINS on scopes combined with the client's provider through the join.
      const rows = await store.select(
        db,
        'OAuthContactToken',
        {
          where: [
            ['scopes', 'CONTAINS', 'mail'],
            ['client_id.provider', '=', 'o2s_local'],
            ['tag', '=', 'rows'],
          ],
        },
        null,
      );
      expect(rows.map((r) => r.id)).to.deep.equal([mineId]);
    });

    it('writes: "manage my" + edit all cannot touch another contact\'s token; "manage all" + edit all can', async () => {
      const access =
        booted.kernel.container.resolve<import('../../../plugins/entity-core').EntityStore>('entityStore').access;
      const entity = store.entity('OAuthContactToken');
      const db = booted.kernel.db;
      const my = who(['manage my OAuth contact tokens', 'edit all contacts'], user.contactId);
      const proposed = (contactId: number) => ({ proposed: { contact_id: contactId } });
      expect((await failure(access.check(db, entity, 'create', proposed(other.contactId!), my))).code).to.equal(
        'E_FORBIDDEN',
      );
      await access.check(db, entity, 'edit', proposed(user.contactId!), my);
      await access.check(
        db,
        entity,
        'create',
        proposed(other.contactId!),
        who(['manage all OAuth contact tokens', 'edit all contacts'], user.contactId),
      );
      expect(
        (
          await failure(
            call(
              'OAuthContactToken',
              'refresh',
              { where: [['id', '=', theirsId]] },
              who(['access CRM'], user.contactId),
            ),
          )
        ).code,
      ).to.equal('E_FORBIDDEN');
    });
  });

  describe('flush', () => {
    it('System.flush (APIv3, administer CRM) flushes the provider cache; crm flush is a CLI command', async () => {
      const providers = booted.kernel.container.resolve<{ flush(): void }>('oauthProviders');
      let flushed = 0;
      const orig = providers.flush.bind(providers);
      providers.flush = () => {
        flushed++;
        orig();
      };
      try {
        const res = (await booted.kernel.call({
          version: 3,
          entity: 'System',
          action: 'flush',
          params: {},
          principal: ADMIN,
        })) as Row;
        expect(res.is_error).to.equal(0);
        // At once here; on PostgreSQL this instance hears its own pg_notify again on commit (idempotent).
        expect(flushed).to.be.at.least(1);
        const afterFirst = flushed;
        expect(
          (
            await failure(
              booted.kernel.call({
                version: 3,
                entity: 'System',
                action: 'flush',
                params: {},
                principal: who(['access CRM'], 3),
              }),
            )
          ).code,
        ).to.equal('E_FORBIDDEN');
        const { cliCommands } = await import('../../../host');
        const cmds = (await booted.kernel.hooks.run(cliCommands)) as Array<{
          name: string;
          run: (...a: unknown[]) => unknown;
        }>;
        const flush = cmds.find((c) => c.name === 'flush')!;
        expect(await flush.run([], {}, cliContext(booted.kernel))).to.match(/Flushed/);
        expect(flushed).to.be.greaterThan(afterFirst);
      } finally {
        providers.flush = orig;
      }
    });
  });
});
