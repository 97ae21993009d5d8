/**
 * Each grant end to end at the service level, against real authorization servers started from npm
 * packages: oidc-provider (authorization code + PKCE through a scripted login and consent, refresh
 * with rotation, client credentials, signed id_token) and @node-oauth/oauth2-server (password,
 * refresh-token rotation). Also the provider's errors, a provider that is down, and no leaks.
 */
import path from 'node:path';
import { expect } from 'chai';
import { decodeJwt } from 'jose';
import { failure, bootTestKernel, type TestKernel } from '../../../host/testing';
import type { OAuthTokens } from '../../../plugins/oauth-client/tokens';
import type { ClientRecord, TokenRecord } from '../../../plugins/oauth-client/types';
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
  writeTestProviders,
  type RunningOAuthServers,
} from '../../support/oauth-servers';

describe('oauth grants against real authorization servers', function () {
  this.timeout(30000);
  let servers: RunningOAuthServers;
  let booted: TestKernel;
  let tokens: OAuthTokens;
  let dataDir: string;
  const oidcClient: ClientRecord = {
    id: 7,
    provider: 'oidc_local',
    guid: OIDC_CLIENT.id,
    secret: OIDC_CLIENT.secret,
    options: { redirectUri: OIDC_CLIENT.redirectUri },
  };
  const m2mClient: ClientRecord = {
    id: 8,
    provider: 'oidc_m2m',
    guid: OIDC_M2M_CLIENT.id,
    secret: OIDC_M2M_CLIENT.secret,
  };
  const o2sClient: ClientRecord = { id: 9, provider: 'o2s_local', guid: O2S_CLIENT.id, secret: O2S_CLIENT.secret };

  /** Authorization URL → scripted login and consent → code exchange with the PKCE verifier. */
  async function codeFlow(client: ClientRecord = oidcClient, tag: string | null = null): Promise<TokenRecord> {
    const start = await tokens.authorizationUrl({ client });
    const back = await scriptedLogin(start.url, OIDC_CLIENT.redirectUri);
    expect(back.searchParams.get('state')).to.equal(start.state);
    return tokens.fetchToken('authorization_code', {
      client,
      scopes: start.scopes,
      tag,
      params: { code: back.searchParams.get('code'), codeVerifier: start.codeVerifier },
    });
  }

  before(async () => {
    servers = await startOAuthServers();
    dataDir = tempDataDir();
    writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
    booted = await bootTestKernel({
      plugins: [
        ...OAUTH_BASE_PLUGINS,
        'oauth-grant-authorization-code',
        'oauth-grant-password',
        'oauth-grant-client-credentials',
      ],
      config: { dataDir, pluginConfig: { 'oauth-client': { timeoutMs: 1500 } } },
    });
    tokens = booted.kernel.container.resolve('oauthTokens');
  });

  after(() => stopOAuthTest(booted, servers, dataDir));

  // Nothing secret ever reaches a log line.
  afterEach(() => expectNoSecretsLogged(booted.logs, servers));

  it('registers the grants by type and alias', () => {
    expect(tokens.grantTypes()).to.include.members([
      'authorization_code',
      'authorizationCode',
      'password',
      'userPassword',
      'client_credentials',
      'clientCredential',
      'clientCredentials',
      'refresh_token',
    ]);
  });

  describe('authorization code with PKCE (oidc-provider)', () => {
    it('the authorization URL: response_type, client_id, redirect_uri, scope with separator, state, S256 challenge, prompt', async () => {
      const start = await tokens.authorizationUrl({ client: oidcClient });
      const url = new URL(start.url);
      expect(url.origin + url.pathname).to.equal(servers.oidc.authorizeUrl);
      const query = Object.fromEntries(url.searchParams);
      expect(query).to.include({
        response_type: 'code',
        client_id: OIDC_CLIENT.id,
        redirect_uri: OIDC_CLIENT.redirectUri,
        scope: 'openid email offline_access',
        state: start.state,
        code_challenge_method: 'S256',
        prompt: 'consent',
      });
      expect(start.state).to.match(/^CC_[a-zA-Z0-9]{29}$/);
      expect(query.code_challenge).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(query).not.to.have.property('response_mode');
      expect(start.codeVerifier).to.match(/^[A-Za-z0-9_-]{43,128}$/);
      expect(start.scopes).to.deep.equal(['openid', 'email', 'offline_access']);
    });

    it('exchanges the code for tokens, with the owner from the verified id_token', async () => {
      const before = Math.floor(Date.now() / 1000);
      const record = await codeFlow(oidcClient, 'MailSettings:setup');
      expect(record).to.include({
        client_id: 7,
        grant_type: 'authorization_code',
        tag: 'MailSettings:setup',
        token_type: 'Bearer',
        resource_owner_name: 'alice@example.test',
      });
      expect(record.access_token).to.be.a('string').with.length.above(20);
      expect(record.refresh_token).to.be.a('string').with.length.above(20);
      expect(record.scopes).to.deep.equal(['openid', 'email', 'offline_access']);
      expect(record.expires).to.be.within(before + 3590, before + 3700);
      expect(record.resource_owner).to.include({
        sub: 'alice',
        email: 'alice@example.test',
        aud: OIDC_CLIENT.id,
        iss: servers.oidc.issuer,
      });
      expect(record.raw).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'openid email offline_access' });
      expect(record.raw).to.not.have.any.keys('access_token', 'refresh_token', 'id_token');
    });

    it('reads the owner from urlResourceOwnerDetails when the provider has one', async () => {
      const client = { ...oidcClient, provider: 'oidc_userinfo' };
      const record = await codeFlow(client);
      expect(record.resource_owner).to.include({ sub: 'alice', email: 'alice@example.test' });
      expect(record.resource_owner_name).to.equal('alice@example.test');
    });

    it('refreshes with rotation: a new access and refresh token, scopes and owner kept', async () => {
      const first = await codeFlow();
      const stored = { ...first, id: 1, expires: 0, error: { error: 'old failure' } };
      expect(tokens.needsRefresh(stored)).to.equal(true);
      const refreshed = await tokens.refresh({ client: oidcClient, token: stored });
      expect(refreshed.access_token).to.be.a('string').and.not.equal(first.access_token);
      expect(refreshed.refresh_token).to.be.a('string').and.not.equal(first.refresh_token);
      expect(refreshed.expires).to.be.above(Math.floor(Date.now() / 1000) + 3500);
      expect(refreshed).to.include({ id: 1, resource_owner_name: 'alice@example.test', error: null });
      expect(refreshed.scopes).to.deep.equal(first.scopes);
      // The old refresh token is spent (rotation): using it again is the provider's invalid_grant.
      const err = await failure(tokens.refresh({ client: oidcClient, token: first }));
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.details).to.include({ error: 'invalid_grant' });
    });

    it("refuses a bad code, a replayed code and a wrong PKCE verifier with the provider's error", async () => {
      const bad = await failure(
        tokens.fetchToken('authorization_code', {
          client: oidcClient,
          params: { code: 'not-a-code', codeVerifier: 'x'.repeat(43) },
        }),
      );
      expect(bad.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(bad.details).to.include({ provider: 'oidc_local', error: 'invalid_grant', status: 400 });

      const start = await tokens.authorizationUrl({ client: oidcClient });
      const back = await scriptedLogin(start.url, OIDC_CLIENT.redirectUri);
      const code = back.searchParams.get('code');
      const wrongVerifier = await failure(
        tokens.fetchToken('authorization_code', { client: oidcClient, params: { code, codeVerifier: 'y'.repeat(43) } }),
      );
      expect(wrongVerifier.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(wrongVerifier.details).to.include({ error: 'invalid_grant' });

      const start2 = await tokens.authorizationUrl({ client: oidcClient });
      const back2 = await scriptedLogin(start2.url, OIDC_CLIENT.redirectUri);
      const params = { code: back2.searchParams.get('code'), codeVerifier: start2.codeVerifier };
      await tokens.fetchToken('authorization_code', { client: oidcClient, params });
      const replay = await failure(tokens.fetchToken('authorization_code', { client: oidcClient, params }));
      expect(replay.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(replay.details).to.include({ error: 'invalid_grant' });
      expect(replay.message).to.match(/^OAuth provider oidc_local refused the request: invalid_grant/);
    });

    it('refuses a wrong client secret without echoing it', async () => {
      const start = await tokens.authorizationUrl({ client: oidcClient });
      const back = await scriptedLogin(start.url, OIDC_CLIENT.redirectUri);
      const wrong = { ...oidcClient, secret: 'wrong-secret-4d1f9a' };
      const err = await failure(
        tokens.fetchToken('authorization_code', {
          client: wrong,
          params: { code: back.searchParams.get('code'), codeVerifier: start.codeVerifier },
        }),
      );
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.details).to.include({ error: 'invalid_client' });
      expect(JSON.stringify({ m: err.message, d: err.details })).not.to.contain('wrong-secret-4d1f9a');
    });
  });

  describe('client credentials (oidc-provider)', () => {
    it('gets a client token with the requested scope', async () => {
      const record = await tokens.fetchToken('clientCredential', { client: m2mClient, scopes: 'api:read', tag: 'sys' });
      expect(record).to.include({
        grant_type: 'client_credentials',
        client_id: 8,
        refresh_token: null,
        tag: 'sys',
        token_type: 'Bearer',
      });
      expect(record.scopes).to.deep.equal(['api:read']);
      expect(record.expires).to.be.above(Math.floor(Date.now() / 1000) + 500);
      // No user here: the owner lookup fails at the provider and is skipped with a warning.
      expect(record.resource_owner).to.equal(null);
      expect(booted.logs.join('\n')).to.contain('Failed to resolve resource_owner');
    });

    it('uses the provider default scopes when none are asked for', async () => {
      const record = await tokens.fetchToken('client_credentials', { client: m2mClient });
      expect(record.scopes).to.deep.equal(['api:read']);
    });

    it('records the scopes the provider granted, not the ones asked for', async () => {
      const record = await tokens.fetchToken('client_credentials', {
        client: m2mClient,
        scopes: ['api:read', 'admin:everything'],
      });
      expect(record.scopes).to.deep.equal(['api:read']);
    });

    it('refuses a wrong secret', async () => {
      const err = await failure(
        tokens.fetchToken('client_credentials', { client: { ...m2mClient, secret: 'nope-nope-nope' } }),
      );
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.details).to.include({ error: 'invalid_client' });
      expect(err.message).not.to.contain('nope-nope-nope');
    });
  });

  describe('password and refresh rotation (@node-oauth/oauth2-server)', () => {
    it('gets a token for a username and password, scopes from the response, owner from the owner URL', async () => {
      const record = await tokens.fetchToken('userPassword', {
        client: o2sClient,
        scopes: ['mail', 'profile'],
        params: { ...O2S_USER },
      });
      expect(record).to.include({
        grant_type: 'password',
        token_type: 'Bearer',
        resource_owner_name: 'alice@example.test',
      });
      expect(record.scopes).to.deep.equal(['mail', 'profile']);
      expect(record.resource_owner).to.deep.equal({ id: 'u-1', username: 'alice', email: 'alice@example.test' });
      expect(servers.o2s.tokens.byAccess.has(record.access_token)).to.equal(true);
    });

    it('rotates the refresh token on refresh and refuses the old one afterwards', async () => {
      const first = await tokens.fetchToken('password', { client: o2sClient, params: { ...O2S_USER } });
      const second = await tokens.refresh({ client: o2sClient, token: first });
      expect(second.refresh_token).to.be.a('string').and.not.equal(first.refresh_token);
      expect(second.access_token).not.to.equal(first.access_token);
      expect(servers.o2s.tokens.byRefresh.has(first.refresh_token!)).to.equal(false);
      const third = await tokens.refresh({ client: o2sClient, token: second });
      expect(third.refresh_token).not.to.equal(second.refresh_token);
      const err = await failure(tokens.refresh({ client: o2sClient, token: first }));
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.details).to.include({
        error: 'invalid_grant',
        error_description: 'Invalid grant: refresh token is invalid',
      });
    });

    it('refuses a wrong password and a wrong client secret, leaking neither', async () => {
      const pw = await failure(
        tokens.fetchToken('password', { client: o2sClient, params: { username: 'alice', password: 'guess-77' } }),
      );
      expect(pw.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(pw.details).to.include({ error: 'invalid_grant' });
      expect(pw.message).not.to.contain('guess-77');
      const secret = await failure(
        tokens.fetchToken('password', { client: { ...o2sClient, secret: 'bad-secret-x1' }, params: { ...O2S_USER } }),
      );
      expect(secret.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(secret.details).to.include({ error: 'invalid_client' });
      expect(JSON.stringify({ m: secret.message, d: secret.details }))
        .not.to.contain('bad-secret-x1')
        .and.not.contain(O2S_USER.password);
    });

    it('passes on a scope refusal (invalid_scope)', async () => {
      const err = await failure(
        tokens.fetchToken('password', { client: o2sClient, scopes: ['admin'], params: { ...O2S_USER } }),
      );
      expect(err.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(err.details).to.include({ error: 'invalid_scope' });
    });

    it('needs a username and password before asking the provider', async () => {
      const err = await failure(tokens.fetchToken('password', { client: o2sClient, params: { username: 'alice' } }));
      expect(err.code).to.equal('E_OAUTH_CLIENT_INVALID');
    });
  });

  describe('bad input and failures', () => {
    it('refuses to refresh a token without refresh_token before any request', async () => {
      const err = await failure(
        tokens.refresh({ client: o2sClient, token: { access_token: 'a', refresh_token: null } }),
      );
      expect(err.code).to.equal('E_OAUTH_NO_REFRESH_TOKEN');
    });

    it('reports a provider that is down (closed port) as unreachable', async () => {
      const client = { provider: 'down_local', guid: 'c', secret: 'down-secret-q9' };
      const err = await failure(tokens.fetchToken('client_credentials', { client }));
      expect(err.code).to.equal('E_OAUTH_UNREACHABLE');
      expect(err.status).to.equal(502);
      expect(err.message).to.equal('OAuth provider down_local could not be reached (ECONNREFUSED)');
      const refresh = await failure(tokens.refresh({ client, token: { refresh_token: 'r' } }));
      expect(refresh.code).to.equal('E_OAUTH_UNREACHABLE');
    });

    it('reports a provider that does not answer in time as unreachable', async () => {
      const started = Date.now();
      const err = await failure(
        tokens.fetchToken('client_credentials', { client: { provider: 'odd_hang', guid: 'c', secret: 's' } }),
      );
      expect(err.code).to.equal('E_OAUTH_UNREACHABLE');
      expect(err.message).to.equal('OAuth provider odd_hang could not be reached (no answer within 1500 ms)');
      expect(Date.now() - started).to.be.below(5000);
    });

    it('refuses answers that are not token responses', async () => {
      const client = (provider: string) => ({ provider, guid: 'c', secret: 's' });
      const html = await failure(tokens.fetchToken('client_credentials', { client: client('odd_html') }));
      expect(html.code).to.equal('E_OAUTH_RESPONSE_INVALID');
      expect(html.message).to.contain('not a JSON object (HTTP 200)');
      const error500 = await failure(tokens.fetchToken('client_credentials', { client: client('odd_html_error') }));
      expect(error500.code).to.equal('E_OAUTH_PROVIDER_ERROR');
      expect(error500.details).to.include({ error: 'http_500', status: 500 });
      const noToken = await failure(tokens.fetchToken('client_credentials', { client: client('odd_no_token') }));
      expect(noToken.code).to.equal('E_OAUTH_RESPONSE_INVALID');
      expect(noToken.message).to.contain('access_token');
    });

    it('refuses an unknown provider, an unknown grant and a client without id', async () => {
      expect((await failure(tokens.fetchToken('password', { client: { provider: 'nope', guid: 'x' } }))).code).to.equal(
        'E_OAUTH_PROVIDER_UNKNOWN',
      );
      expect((await failure(tokens.fetchToken('device_code', { client: o2sClient }))).code).to.equal(
        'E_OAUTH_GRANT_UNKNOWN',
      );
      expect((await failure(tokens.fetchToken('password', { client: undefined as never }))).code).to.equal(
        'E_OAUTH_CLIENT_INVALID',
      );
      expect(
        (await failure(tokens.fetchToken('password', { client: { provider: 'o2s_local', guid: '' } }))).code,
      ).to.equal('E_OAUTH_CLIENT_INVALID');
    });

    it('refuses a response mode the provider does not allow', async () => {
      const err = await failure(
        tokens.authorizationUrl({
          client: { provider: 'test_example_1', guid: 'example-id' },
          params: { responseMode: 'web_message', redirectUri: 'https://crm.example/return' },
        }),
      );
      expect(err.code).to.equal('E_OAUTH_CLIENT_INVALID');
      expect(err.message).to.equal('Unsupported response mode: web_message');
    });

    it("builds the reference's test_example URLs (comma separator, explicit scopes)", async () => {
      const client = { provider: 'test_example_1', guid: 'example-id' };
      const start = await tokens.authorizationUrl({
        client,
        params: { redirectUri: 'https://crm.example/crm/oauth-client/return' },
      });
      const startUrl = new URL(start.url);
      expect(startUrl.host + startUrl.pathname).to.equal('example.com/one/auth');
      expect(startUrl.searchParams.get('scope')).to.equal('scope-1-foo,scope-1-bar');
      const one = new URL(
        (
          await tokens.authorizationUrl({
            client,
            scopes: 'scope-1-bar',
            params: { redirectUri: 'https://crm.example/r' },
          })
        ).url,
      );
      expect(one.searchParams.get('scope')).to.equal('scope-1-bar');
      const web = new URL(
        (
          await tokens.authorizationUrl({
            client: { provider: 'test_example_3', guid: 'e' },
            params: { responseMode: 'web_message', redirectUri: 'https://crm.example/r' },
          })
        ).url,
      );
      expect(web.searchParams.get('response_mode')).to.equal('web_message');
    });

    it('refuses to send credentials over plain HTTP to a non-loopback host', async () => {
      const client = { provider: 'hooked', guid: 'g', secret: 's' };
      const provider = {
        name: 'hooked',
        title: 'Plain HTTP',
        class: 'generic',
        options: { urlAuthorize: 'http://insecure.example/a', urlAccessToken: 'http://insecure.example/token' },
      };
      const err = await failure(tokens.fetchToken('client_credentials', { client, provider }));
      expect(err.code).to.equal('E_OAUTH_INSECURE');
    });

    it('without a public URL, sends the redirect URI on the address the service listens on', async () => {
      // Before issue 15 this was an error, so a fresh start could not run the authorization-code grant.
      const { url } = await tokens.authorizationUrl({ client: { provider: 'test_example_1', guid: 'example-id' } });
      const { host, port } = booted.config.server;
      expect(new URL(url).searchParams.get('redirect_uri')).to.equal(`http://${host}:${port}/crm/oauth-client/return`);
    });
  });

  it('sends the client id as issued and never the token in an error (decoded id_token is for this client)', async () => {
    const record = await codeFlow();
    const claims = record.resource_owner!;
    expect(claims.aud).to.equal(OIDC_CLIENT.id);
    expect(() => decodeJwt(record.access_token)).to.throw(); // opaque access token from oidc-provider
  });
});
