/**
 * The OAuth entities through the real APIv4 HTTP binding, with the default plugin set: a deployer
 * registers a client, runs the client-credentials and password grants against real authorization
 * servers, reads tokens with and without the secrets permission, and refreshes them.
 */
import path from 'node:path';
import { expect } from 'chai';
import type supertest from 'supertest';
import { bootTestKernel, type TestKernel } from '../../host/testing';
import type { IdentityStore } from '../../plugins/users';
import {
  O2S_CLIENT,
  O2S_USER,
  OIDC_M2M_CLIENT,
  startOAuthServers,
  tempDataDir,
  writeTestProviders,
  type RunningOAuthServers,
} from '../support/oauth-servers';

describe('integration: OAuth over APIv4 HTTP', function () {
  this.timeout(60000);
  let servers: RunningOAuthServers;
  let testKernel: TestKernel;
  let http: supertest.Agent;
  const keys: Record<string, string> = {};

  before(async () => {
    servers = await startOAuthServers();
    const dataDir = tempDataDir();
    writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
    testKernel = await bootTestKernel({
      config: { dataDir, pluginConfig: { 'oauth-client': { timeoutMs: 3000 } } },
      logLevel: 'info',
    });
    http = await testKernel.http();
    const identity = testKernel.kernel.container.resolve<IdentityStore>('identity');
    const db = testKernel.kernel.db;
    const user = async (name: string, permissions: string[]) => {
      await identity.ensureRole(db, `r_${name}`);
      await identity.grantPermissions(db, `r_${name}`, ['authenticate with api key', ...permissions]);
      const u = await identity.createUser(db, { username: name, roles: [`r_${name}`] });
      keys[name] = (await identity.createApiKey(db, u.contact_id)).key;
    };
    await user('operator', ['access CRM', 'manage OAuth client', 'manage OAuth client secrets']);
    await user('viewer', ['access CRM', 'manage OAuth client']);
  });
  after(async () => {
    await testKernel?.close();
    await servers?.stop();
  });

  const api4 = (who: string, entityAction: string, params: object) =>
    http
      .post(`/crm/ajax/api4/${entityAction}`)
      .set('X-Crm-Auth', `Bearer ${keys[who]}`)
      .type('form')
      .send({ params: JSON.stringify(params) });

  it('lists the providers (OAuthProvider.get), including the test ones in test mode', async () => {
    const res = await api4('operator', 'OAuthProvider/get', { select: ['name', 'title'] });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const names = res.body.values.map((p: { name: string }) => p.name);
    expect(names).to.include.members(['gmail', 'ms-exchange', 'oidc_m2m', 'o2s_local']);
  });

  it('registers clients, runs client credentials and password grants, and hides secrets from those without the permission', async () => {
    const m2m = await api4('operator', 'OAuthClient/create', {
      values: { provider: 'oidc_m2m', guid: OIDC_M2M_CLIENT.id, secret: OIDC_M2M_CLIENT.secret },
    });
    expect(m2m.status, JSON.stringify(m2m.body)).to.equal(200);
    expect(m2m.text).to.not.contain(OIDC_M2M_CLIENT.secret);
    const m2mId = m2m.body.values[0].id;

    const cc = await api4('operator', 'OAuthClient/clientCredential', {
      where: [['id', '=', m2mId]],
      tag: 'nightly-sync',
    });
    expect(cc.status, JSON.stringify(cc.body)).to.equal(200);
    expect(cc.body.values[0]).to.include({
      grant_type: 'client_credentials',
      tag: 'nightly-sync',
      token_type: 'Bearer',
    });
    expect(cc.body.values[0].access_token).to.be.a('string').with.length.greaterThan(10);

    const o2s = await api4('operator', 'OAuthClient/create', {
      values: { provider: 'o2s_local', guid: O2S_CLIENT.id, secret: O2S_CLIENT.secret },
    });
    const pw = await api4('operator', 'OAuthClient/userPassword', {
      where: [['id', '=', o2s.body.values[0].id]],
      username: O2S_USER.username,
      password: O2S_USER.password,
      tag: 'mailbox',
    });
    expect(pw.status, JSON.stringify(pw.body)).to.equal(200);
    expect(pw.body.values[0]).to.include({ grant_type: 'password', tag: 'mailbox' });
    expect(pw.text).to.not.contain(O2S_USER.password);

    const asOperator = await api4('operator', 'OAuthSysToken/get', {
      select: ['id', 'tag', 'access_token', 'client_id.provider'],
      where: [['tag', '=', 'nightly-sync']],
    });
    expect(asOperator.body.values[0]).to.include({ tag: 'nightly-sync', 'client_id.provider': 'oidc_m2m' });
    expect(asOperator.body.values[0].access_token).to.be.a('string');
    const asViewer = await api4('viewer', 'OAuthSysToken/get', {
      select: ['id', 'tag', 'access_token'],
      where: [['tag', '=', 'nightly-sync']],
    });
    expect(asViewer.status).to.equal(200);
    expect(asViewer.body.values[0]).to.not.have.property('access_token');
    expect(asViewer.text).to.not.contain(asOperator.body.values[0].access_token);
  });

  it('refreshes a password-grant token on request (threshold -1) and keeps the rotated refresh token', async () => {
    const before = await api4('operator', 'OAuthSysToken/get', {
      select: ['id', 'access_token', 'refresh_token'],
      where: [['tag', '=', 'mailbox']],
    });
    const old = before.body.values[0];
    const res = await api4('operator', 'OAuthSysToken/refresh', { where: [['id', '=', old.id]], threshold: -1 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const now = (
      await api4('operator', 'OAuthSysToken/get', {
        select: ['access_token', 'refresh_token'],
        where: [['id', '=', old.id]],
      })
    ).body.values[0];
    expect(now.access_token).to.not.equal(old.access_token);
    expect(now.refresh_token).to.be.a('string').and.not.equal(old.refresh_token);
  });

  it('refuses grant actions over GET and to callers without manage OAuth client', async () => {
    const overGet = await http
      .get('/crm/ajax/api4/OAuthClient/clientCredential')
      .set('X-Crm-Auth', `Bearer ${keys.operator}`)
      .query({ params: JSON.stringify({ where: [['id', '=', 1]] }) });
    expect(overGet.status).to.equal(405);
    const anon = await http
      .post('/crm/ajax/api4/OAuthClient/get')
      .set('X-Requested-With', 'XMLHttpRequest')
      .type('form')
      .send({ params: '{}' });
    expect(anon.status).to.be.oneOf([401, 403]);
  });

  it('never logs a client secret, user password or token', async () => {
    const tokens = (
      await api4('operator', 'OAuthSysToken/get', { select: ['access_token', 'refresh_token'] })
    ).body.values
      .flatMap((v: { access_token: string; refresh_token: string | null }) => [v.access_token, v.refresh_token])
      .filter(Boolean);
    const logs = testKernel.logs.join('\n');
    for (const secret of [
      OIDC_M2M_CLIENT.secret,
      O2S_CLIENT.secret,
      O2S_USER.password,
      ...tokens,
      ...Object.values(keys),
    ])
      expect(logs).to.not.contain(secret);
  });
});
