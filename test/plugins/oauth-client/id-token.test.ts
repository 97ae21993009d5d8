/** id_token verification with jose against oidc-provider's real JWKS: good, tampered, wrong key, unsigned. */
import path from 'node:path';
import { expect } from 'chai';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { failure, bootTestKernel, type TestKernel } from '../../../host/testing';
import { verifyIdToken } from '../../../plugins/oauth-client/id-token';
import type { OAuthTokens } from '../../../plugins/oauth-client/tokens';
import type { ProviderRecord } from '../../../plugins/oauth-client/types';
import {
  OAUTH_BASE_PLUGINS,
  stopOAuthTest,
  OIDC_CLIENT,
  scriptedLogin,
  startOAuthServers,
  tempDataDir,
  testProviderRecords,
  writeTestProviders,
  type RunningOAuthServers,
} from '../../support/oauth-servers';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('oauth-client id_token verification', function () {
  this.timeout(30000);
  let servers: RunningOAuthServers;
  let booted: TestKernel;
  let tokens: OAuthTokens;
  let dataDir: string;
  let idToken: string;
  const client = {
    id: 1,
    provider: 'oidc_local',
    guid: OIDC_CLIENT.id,
    secret: OIDC_CLIENT.secret,
    options: { redirectUri: OIDC_CLIENT.redirectUri },
  };

  async function rawTokenResponseIdToken(provider?: ProviderRecord) {
    const start = await tokens.authorizationUrl({ client, provider });
    const back = await scriptedLogin(start.url, OIDC_CLIENT.redirectUri);
    return tokens.fetchToken('authorization_code', {
      client,
      provider,
      params: { code: back.searchParams.get('code'), codeVerifier: start.codeVerifier },
    });
  }

  before(async () => {
    servers = await startOAuthServers();
    dataDir = tempDataDir();
    writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
    booted = await bootTestKernel({
      plugins: [...OAUTH_BASE_PLUGINS, 'oauth-grant-authorization-code'],
      config: { dataDir },
      logLevel: 'warn',
    });
    tokens = booted.kernel.container.resolve('oauthTokens');
    // A real id_token, fetched straight from the token endpoint.
    const start = await tokens.authorizationUrl({ client });
    const back = await scriptedLogin(start.url, OIDC_CLIENT.redirectUri);
    const res = await fetch(servers.oidc.tokenUrl, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: OIDC_CLIENT.redirectUri,
        code_verifier: start.codeVerifier,
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
      }),
    });
    idToken = ((await res.json()) as { id_token: string }).id_token;
  });

  after(() => stopOAuthTest(booted, servers, dataDir));

  const opts = () => ({
    jwksUrl: servers.oidc.jwksUrl,
    tokenUrl: servers.oidc.tokenUrl,
    audience: OIDC_CLIENT.id,
    issuer: servers.oidc.issuer,
  });

  it('accepts a good id_token and returns its claims', async () => {
    const claims = await verifyIdToken(idToken, opts());
    expect(claims).to.include({
      sub: 'alice',
      email: 'alice@example.test',
      aud: OIDC_CLIENT.id,
      iss: servers.oidc.issuer,
    });
  });

  it('refuses a tampered payload', async () => {
    const [h, p, s] = idToken.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${b64({ ...payload, email: 'mallory@example.test' })}.${s}`;
    const err = await failure(verifyIdToken(forged, opts()));
    expect(err.code).to.equal('E_OAUTH_ID_TOKEN');
    expect(err.message).to.equal('The id_token was refused: its signature does not verify');
  });

  it('refuses a token signed with another key, even with the same kid', async () => {
    const header = JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url').toString());
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ sub: 'alice', email: 'mallory@example.test' })
      .setProtectedHeader({ alg: 'RS256', kid: header.kid })
      .setIssuer(servers.oidc.issuer)
      .setAudience(OIDC_CLIENT.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const err = await failure(verifyIdToken(forged, opts()));
    expect(err.code).to.equal('E_OAUTH_ID_TOKEN');
    // …and the real token does not verify against a key set that is not the provider's.
    const otherKeys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: header.kid, alg: 'RS256' }] });
    const err2 = await failure(verifyIdToken(idToken, { ...opts(), keys: otherKeys }));
    expect(err2.code).to.equal('E_OAUTH_ID_TOKEN');
  });

  it('refuses the wrong audience or issuer', async () => {
    expect((await failure(verifyIdToken(idToken, { ...opts(), audience: 'someone-else' }))).message).to.contain(
      '"aud" claim',
    );
    expect(
      (await failure(verifyIdToken(idToken, { ...opts(), issuer: 'https://elsewhere.example' }))).message,
    ).to.contain('"iss" claim');
  });

  it('refuses an unsigned id_token from a non-HTTPS token URL, and an unsigned one when a JWKS exists', async () => {
    const unsigned = new UnsecuredJWT({ sub: 'x', email: 'x@example.test' }).setAudience(OIDC_CLIENT.id).encode();
    const insecure = await failure(
      verifyIdToken(unsigned, { tokenUrl: 'http://127.0.0.1:1/token', audience: OIDC_CLIENT.id }),
    );
    expect(insecure.code).to.equal('E_OAUTH_INSECURE');
    expect(insecure.message).to.match(/^Cannot decode ID token from insecure source/);
    const withJwks = await failure(verifyIdToken(unsigned, opts()));
    expect(withJwks.code).to.equal('E_OAUTH_ID_TOKEN');
    // From an HTTPS token endpoint without a JWKS, the reference's rule applies: the payload is trusted.
    expect(
      await verifyIdToken(unsigned, { tokenUrl: 'https://login.example/token', audience: OIDC_CLIENT.id }),
    ).to.include({ email: 'x@example.test' });
  });

  it('reports a JWKS that cannot be fetched as unreachable', async () => {
    const err = await failure(verifyIdToken(idToken, { ...opts(), jwksUrl: `${servers.closedUrl}/jwks` }));
    expect(err.code).to.equal('E_OAUTH_UNREACHABLE');
  });

  it('refuses garbage', async () => {
    expect((await failure(verifyIdToken('not-a-jwt', opts()))).code).to.equal('E_OAUTH_ID_TOKEN');
  });

  it('fails the code exchange when {{use_id_token}} meets an HTTP token URL without a JWKS', async () => {
    const record = testProviderRecords(servers).oidc_local as unknown as ProviderRecord;
    const provider: ProviderRecord = {
      ...record,
      name: 'oidc_nojwks',
      class: 'generic',
      options: { ...record.options, urlJwks: undefined },
    };
    const err = await failure(rawTokenResponseIdToken(provider));
    expect(err.code).to.equal('E_OAUTH_INSECURE');
  });

  it('uses the verified id_token as the resource owner in a real exchange', async () => {
    const record = await rawTokenResponseIdToken();
    expect(record.resource_owner_name).to.equal('alice@example.test');
  });
});
