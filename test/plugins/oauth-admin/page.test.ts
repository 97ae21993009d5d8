/**
 * The OAuth administration page over HTTP, against the real oidc-provider test server: the gate,
 * clients CRUD with a write-only secret, CSRF, the redirect URI on the listening address, and a
 * complete Connect (authorization code) coming back to the page with the token listed, then refreshed
 * and revoked. Secrets never appear in a page.
 */
import path from 'node:path';
import { expect } from 'chai';
import supertest from 'supertest';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import {
  OIDC_CLIENT,
  scriptedLogin,
  startOAuthServers,
  stopOAuthTest,
  tempDataDir,
  writeTestProviders,
  type RunningOAuthServers,
} from '../../support/oauth-servers';
import { hiddenValue, loginAgent, seedWebUsers } from '../../support/web';

describe('oauth-admin: /crm/admin/oauth', function () {
  this.timeout(60000);
  let servers: RunningOAuthServers;
  let testKernel: TestKernel;
  let dataDir: string;
  let admin: supertest.Agent;
  const fresh = async () => supertest.agent((await testKernel.app()).callback());
  const csrfOf = async () => hiddenValue((await admin.get('/crm/admin/oauth')).text, 'csrf');
  const post = async (fields: Record<string, unknown>) =>
    admin
      .post('/crm/admin/oauth')
      .type('form')
      .send({ csrf: await csrfOf(), ...fields });

  before(async () => {
    servers = await startOAuthServers();
    dataDir = tempDataDir();
    writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
    // No publicUrl: the redirect URI comes from the listening address (the one the test server knows).
    testKernel = await bootTestKernel({ config: { dataDir, server: { host: '127.0.0.1', port: 9 } } });
    await seedWebUsers(testKernel);
    admin = await fresh();
    await loginAgent(admin, 'oauthadmin');
  });
  after(() => stopOAuthTest(testKernel, servers, dataDir));

  it('is behind login and the manage OAuth client permission, and linked from the home page', async () => {
    expect((await (await fresh()).get('/crm/admin/oauth')).status).to.equal(303);
    const staff = await fresh();
    await loginAgent(staff, 'staff');
    expect((await staff.get('/crm/admin/oauth')).status).to.equal(403);
    expect((await staff.get('/')).text).to.not.include('href="/crm/admin/oauth"');
    expect((await admin.get('/')).text).to.include('href="/crm/admin/oauth"');
  });

  it('shows the providers with where they came from, and the redirect URI on the listening address', async () => {
    const page = await admin.get('/crm/admin/oauth');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<code id="redirect-uri">http://127.0.0.1:9/crm/oauth-client/return</code>');
    expect(page.text).to.match(/<code>gmail<\/code><\/td><td>[^<]*<\/td><td>core \(providers\/gmail[^)]*\)/);
    expect(page.text).to.match(/<code>oidc_local<\/code><\/td><td>[^<]*<\/td><td>private folder/);
    // Connect redirects to the providers' authorization servers: the form-action policy allows them.
    expect(page.headers['content-security-policy']).to.include(new URL(servers.oidc.authorizeUrl).origin);
  });

  it('creates, edits, disables, enables and deletes a client; the secret is write-only', async () => {
    const created = await post({ op: 'create', provider: 'oidc_m2m', guid: 'first-guid', secret: 'write-only-s3cret' });
    expect(created.status, created.text).to.equal(303);
    expect(created.headers.location).to.equal('/crm/admin/oauth?done=created');
    let page = await admin.get(created.headers.location);
    expect(page.text).to.include('Client added.').and.include('first-guid');
    expect(page.text).to.not.include('write-only-s3cret');
    const id = /<tr><td>(\d+)<\/td><td><code>oidc_m2m<\/code><\/td><td>first-guid</.exec(page.text)![1];

    expect((await post({ op: 'update', id, guid: 'second-guid', secret: '' })).status).to.equal(303);
    const [row] = (await testKernel.kernel.db('crm_oauth_client').where({ id })) as Array<Record<string, unknown>>;
    expect(row.guid).to.equal('second-guid');
    expect(row.secret, 'an empty secret box keeps the stored secret').to.be.a('string').and.not.equal('');

    const disabled = await post({ op: 'disable', id });
    page = await admin.get(disabled.headers.location);
    expect(page.text).to.include('Client disabled.').and.include(`aria-label="Enable oidc_m2m client second-guid"`);
    await post({ op: 'enable', id });
    expect((await post({ op: 'delete', id })).headers.location).to.equal('/crm/admin/oauth?done=deleted');
    expect(await testKernel.kernel.db('crm_oauth_client').where({ id })).to.have.length(0);
  });

  it('refuses a post without the session CSRF token, and shows API errors on the page', async () => {
    const forged = await admin
      .post('/crm/admin/oauth')
      .type('form')
      .send({ csrf: 'nope', op: 'create', provider: 'oidc_m2m', guid: 'forged' });
    expect(forged.status).to.equal(403);
    expect(await testKernel.kernel.db('crm_oauth_client').where({ guid: 'forged' })).to.have.length(0);
    const bad = await post({ op: 'create', provider: 'no_such_provider', guid: 'x<script>' });
    expect(bad.status).to.be.within(400, 499);
    expect(bad.text).to.include('role="alert"').and.not.include('x<script>');
  });

  it('connects a client through the authorization code flow and comes back to the page; refresh and revoke', async () => {
    await post({ op: 'create', provider: 'oidc_local', guid: OIDC_CLIENT.id, secret: OIDC_CLIENT.secret });
    const page = await admin.get('/crm/admin/oauth');
    const id = new RegExp(`<tr><td>(\\d+)</td><td><code>oidc_local</code></td><td>${OIDC_CLIENT.id}<`).exec(
      page.text,
    )![1];
    const connect = await post({ op: 'connect', id });
    expect(connect.status).to.equal(303);
    const authorize = new URL(connect.headers.location);
    expect(authorize.origin).to.equal(new URL(servers.oidc.authorizeUrl).origin);
    expect(authorize.searchParams.get('redirect_uri')).to.equal('http://127.0.0.1:9/crm/oauth-client/return');

    const back = await scriptedLogin(authorize.href, OIDC_CLIENT.redirectUri);
    const landed = await admin.get(`/crm/oauth-client/return${back.search}`);
    expect(landed.status, landed.text).to.equal(302);
    expect(landed.headers.location).to.equal('http://127.0.0.1:9/crm/admin/oauth?done=connected');
    const after = await admin.get('/crm/admin/oauth?done=connected');
    expect(after.text).to.include('Connected: the token is stored.').and.include('alice');
    const tokenId = /<tr data-token="(\d+)">/.exec(after.text)![1];
    const [token] = (await testKernel.kernel.db('crm_oauth_systoken').where({ id: tokenId })) as Array<
      Record<string, string>
    >;
    expect(after.text).to.not.include(token.access_token).and.not.include(token.refresh_token);
    expect(after.text).to.not.include(OIDC_CLIENT.secret);

    const refreshed = await post({ op: 'refresh', id: tokenId });
    expect(refreshed.headers.location).to.equal('/crm/admin/oauth?done=refreshed');
    const [again] = (await testKernel.kernel.db('crm_oauth_systoken').where({ id: tokenId })) as Array<
      Record<string, string>
    >;
    expect(again.access_token).to.not.equal(token.access_token);

    expect((await post({ op: 'revoke', id: tokenId })).headers.location).to.equal('/crm/admin/oauth?done=revoked');
    expect(await testKernel.kernel.db('crm_oauth_systoken').where({ id: tokenId })).to.have.length(0);
  });
});
