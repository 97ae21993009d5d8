/**
 * The "Keep OAuth tokens fresh" job against the real local OAuth2 server (@node-oauth/oauth2-server, password
 * grant with refresh rotation): a system and a contact token about to expire are refreshed before anyone asks;
 * when the server refuses the refresh token, oauth.refreshFailed fires once (the signed webhook receives it);
 * when refreshing works again, oauth.refreshRecovered fires.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import { signature } from '../../../plugins/jobs';
import type { EntityRegistry } from '../../../plugins/entity-core';
import {
  OAUTH_BASE_PLUGINS,
  O2S_CLIENT,
  O2S_USER,
  expectNoSecretsLogged,
  startOAuthServers,
  stopOAuthTest,
  tempDataDir,
  writeTestProviders,
  type RunningOAuthServers,
} from '../../support/oauth-servers';

const WEBHOOK_SECRET = 'webhook-secret-for-the-jobs-test';
type Row = Record<string, unknown>;

describe('jobs: OAuth tokens kept fresh (real OAuth2 server)', function () {
  this.timeout(60000);
  let servers: RunningOAuthServers;
  let booted: TestKernel;
  let db: Knex;
  let dataDir: string;
  let receiver: http.Server;
  const received: Array<{ event: string; body: Row; valid: boolean }> = [];
  const admin = principalWith(['*']);
  const call = (version: number, entity: string, action: string, params: Row) =>
    booted.kernel.call({ version, entity, action, params, principal: admin }) as Promise<Row>;
  const runJob = () => call(3, 'Job', 'execute', { name: 'Keep OAuth tokens fresh' });
  /** APIv4 answers: a generic action's result holds `values`; OAuth's own actions answer the rows. */
  const rows = (res: unknown) => (Array.isArray(res) ? res : (res as { values: Row[] }).values) as Row[];
  const token = async (storage: string, tag: string) =>
    rows(
      await call(4, storage, 'get', {
        where: [['tag', '=', tag]],
        select: ['id', 'tag', 'access_token', 'refresh_token', 'expires', 'error'],
      }),
    )[0];
  const expireSoon = (storage: string) =>
    db(booted.kernel.container.resolve<EntityRegistry>('entities').get(storage).table).update({
      expires: Math.floor(Date.now() / 1000) + 30,
    });

  before(async () => {
    servers = await startOAuthServers();
    dataDir = tempDataDir();
    writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const valid = req.headers['x-crm-signature'] === signature(WEBHOOK_SECRET, body);
        received.push({ event: String(req.headers['x-crm-event']), body: JSON.parse(body) as Row, valid });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    booted = await bootTestKernel({
      plugins: [...OAUTH_BASE_PLUGINS, 'api4', 'oauth-grant-password', 'jobs'],
      config: {
        dataDir,
        pluginConfig: {
          'oauth-client': { timeoutMs: 3000 },
          jobs: { autoStart: false, webhookUrl: `http://127.0.0.1:${port}/hook`, webhookSecret: WEBHOOK_SECRET },
        },
      },
    });
    db = booted.kernel.db;
    const [created] = rows(
      await call(4, 'OAuthClient', 'create', {
        values: { provider: 'o2s_local', guid: O2S_CLIENT.id, secret: O2S_CLIENT.secret },
      }),
    );
    const client = Number(created.id);
    const contact = await call(3, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Tok' });
    const contactId = Number(contact.id);
    const grant = (storage: string, tag: string, contactId: number | null = null) =>
      booted.kernel.call({
        version: 4,
        entity: 'OAuthClient',
        action: 'userPassword',
        params: { where: [['id', '=', client]], ...O2S_USER, storage, tag },
        principal: principalWith(['*'], contactId ?? undefined),
      });
    await grant('OAuthSysToken', 'sys-1');
    await grant('OAuthContactToken', 'contact-1', contactId);
  });

  after(async () => {
    await stopOAuthTest(booted, servers, dataDir);
    await new Promise((resolve) => receiver?.close(resolve));
  });

  afterEach(() => {
    expectNoSecretsLogged(booted.logs, servers);
    expect(booted.logs.join('\n')).not.to.contain(WEBHOOK_SECRET);
  });

  it('refreshes the system and contact tokens that expire within the window, before anyone asks', async () => {
    const sysBefore = await token('OAuthSysToken', 'sys-1');
    const contactBefore = await token('OAuthContactToken', 'contact-1');
    await expireSoon('OAuthSysToken');
    await expireSoon('OAuthContactToken');
    const run = (await runJob()) as { values: Record<string, Row> };
    expect(Object.values(run.values)[0]).to.include({ result: 'Success' });
    const sysAfter = await token('OAuthSysToken', 'sys-1');
    const contactAfter = await token('OAuthContactToken', 'contact-1');
    expect(sysAfter.access_token).to.be.a('string').and.not.equal(sysBefore.access_token);
    expect(contactAfter.access_token).to.be.a('string').and.not.equal(contactBefore.access_token);
    expect(Number(sysAfter.expires)).to.be.above(Math.floor(Date.now() / 1000) + 600);
    const logs = await db('crm_job_log').where('name', 'Keep OAuth tokens fresh').orderBy('id');
    expect(JSON.parse(String(logs[logs.length - 1].data)).values[0]).to.include({
      checked: '2',
      refreshed: '2',
      failed: '0',
    });
  });

  it('a token far from expiry is left alone', async () => {
    const before = await token('OAuthSysToken', 'sys-1');
    await runJob();
    expect((await token('OAuthSysToken', 'sys-1')).access_token).to.equal(before.access_token);
  });

  it('the server refusing the refresh fires oauth.refreshFailed once, with a signed webhook', async () => {
    const saved = new Map(servers.o2s.tokens.byRefresh);
    servers.o2s.tokens.byRefresh.clear();
    try {
      await expireSoon('OAuthSysToken');
      await runJob();
      const failed = await token('OAuthSysToken', 'sys-1');
      expect(failed.error).to.include({ error: 'invalid_grant' });
      expect(received).to.have.length(1);
      expect(received[0]).to.include({ event: 'oauth.refreshFailed', valid: true });
      expect(received[0].body.token).to.include({ storage: 'OAuthSysToken', tag: 'sys-1', error: 'invalid_grant' });
      expect(JSON.stringify(received[0].body)).not.to.contain(String(failed.refresh_token));
      // Still failing at the next run: no second event.
      await runJob();
      expect(received).to.have.length(1);
    } finally {
      for (const [key, value] of saved) servers.o2s.tokens.byRefresh.set(key, value);
    }
  });

  it('when the refresh works again, oauth.refreshRecovered fires', async () => {
    await runJob();
    const recovered = await token('OAuthSysToken', 'sys-1');
    expect(recovered.error).to.equal(null);
    expect(received.map((r) => r.event)).to.deep.equal(['oauth.refreshFailed', 'oauth.refreshRecovered']);
    expect(received[1].valid).to.equal(true);
  });
});
