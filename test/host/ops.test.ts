/** Operations surface: access log, /metrics, /readyz, CORS, and waiting for the database at start. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { connectWithRetry } from '../../host/db';
import { createDb, finishConfig } from '../../host';
import { bootTestKernel, type TestKernel } from '../../host/testing';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins');
const lines = (booted: TestKernel) => booted.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('host/operations', function () {
  this.timeout(60000);

  describe('access log and metrics', () => {
    let booted: TestKernel;
    const token = 'metrics-token-0123456789';
    before(async () => {
      booted = await bootTestKernel({
        plugins: ['system', 'api3', 'rest-api3', 'users', 'auth-legacy-keys'],
        config: { metrics: { enabled: true, token } },
      });
    });
    after(() => booted.close());

    it('logs one line per request: method, path with secrets redacted, status, duration, request id, principal', async () => {
      await (
        await booted.http()
      )
        .get('/healthz?api_key=sekrit-1&key=sekrit-2&json%5Bpassword%5D=sekrit-3&keep=visible')
        .set('X-Request-Id', 'access-1');
      const line = lines(booted).find((l) => l.msg === 'request' && l.requestId === 'access-1')!;
      expect(line).to.include({ method: 'GET', status: 200, route: 'system:healthz', via: 'anonymous' });
      expect(line.path).to.equal(
        '/healthz?api_key=[redacted]&key=[redacted]&json%5Bpassword%5D=[redacted]&keep=visible',
      );
      expect(line.ms).to.be.a('number');
      expect(line).to.have.property('contactId', null);
      expect(booted.logs.join('\n')).not.to.match(/sekrit-/);
    });

    it('/metrics needs the bearer token, then counts requests by route and status and API calls by outcome', async () => {
      const http = await booted.http();
      expect((await http.get('/metrics')).status).to.equal(401);
      expect((await http.get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).to.equal(401);
      await http.get('/healthz');
      await http.get('/no/such/route');
      await booted.kernel.api.call({ version: 3, entity: 'System', action: 'get', params: {}, trusted: true });
      await booted.kernel.api.call({ version: 3, entity: 'System', action: 'get', params: {} }).catch(() => undefined);
      const res = await http.get('/metrics').set('Authorization', `Bearer ${token}`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      expect(res.text).to.match(/crm_http_requests_total\{method="GET",route="system:healthz",status="200"\} \d+/);
      expect(res.text).to.match(/crm_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
      expect(res.text).to.contain('crm_http_request_duration_seconds_bucket');
      // A trusted call succeeds; an anonymous one is refused, counted under its error code.
      expect(res.text).to.contain('crm_api_calls_total{version="3",entity="System",action="get",outcome="ok"} 1');
      expect(res.text).to.contain(
        'crm_api_calls_total{version="3",entity="System",action="get",outcome="E_UNAUTHENTICATED"} 1',
      );
      expect(res.text).to.contain('crm_db_pool_used').and.contain('crm_oauth_token_refreshes_total');
    });
  });

  it('/metrics is off by default (404)', async () => {
    const booted = await bootTestKernel({ plugins: ['system'] });
    try {
      expect((await (await booted.http()).get('/metrics')).status).to.equal(404);
    } finally {
      await booted.close();
    }
  });

  it('/readyz: 200 when migrated, 503 naming the pending migrations otherwise', async () => {
    const ready = await bootTestKernel({ plugins: ['system', 'writer'], pluginDirs: [fixtures] });
    try {
      const res = await (await ready.http()).get('/readyz');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok', database: 'ok', migrations: 'applied' });
    } finally {
      await ready.close();
    }
    const behind = await bootTestKernel({ plugins: ['system', 'writer'], pluginDirs: [fixtures], migrate: false });
    try {
      const res = await (await behind.http()).get('/readyz');
      expect(res.status).to.equal(503);
      expect(res.body.migrations).to.equal('pending');
      expect(res.body.pending.some((n: string) => n.startsWith('writer/'))).to.equal(true);
      // Liveness is not readiness: the process and its database are fine.
      expect((await (await behind.http()).get('/healthz')).status).to.equal(200);
    } finally {
      await behind.close();
    }
  });

  describe('CORS', () => {
    let booted: TestKernel;
    before(async () => {
      booted = await bootTestKernel({
        plugins: ['system'],
        config: { server: { cors: { origins: ['https://app.example'], credentials: true } } },
      });
    });
    after(() => booted.close());

    it('answers a preflight from an allowed origin, with credentials', async () => {
      const res = await (
        await booted.http()
      )
        .options('/healthz')
        .set('Origin', 'https://app.example')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'X-Crm-Auth');
      expect(res.status).to.equal(204);
      expect(res.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(res.headers['access-control-allow-credentials']).to.equal('true');
      expect(res.headers['access-control-allow-headers']).to.contain('X-Crm-Auth');
      const get = await (await booted.http()).get('/healthz').set('Origin', 'https://app.example');
      expect(get.headers['access-control-allow-origin']).to.equal('https://app.example');
      expect(get.headers['access-control-expose-headers']).to.contain('X-Request-Id');
    });

    it('gives an origin off the list no CORS headers', async () => {
      const res = await (
        await booted.http()
      )
        .options('/healthz')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(res.headers).not.to.have.property('access-control-allow-origin');
      const get = await (await booted.http()).get('/healthz').set('Origin', 'https://evil.example');
      expect(get.headers).not.to.have.property('access-control-allow-origin');
    });

    it('is off by default', async () => {
      const plain = await bootTestKernel({ plugins: ['system'] });
      try {
        const res = await (await plain.http()).get('/healthz').set('Origin', 'https://app.example');
        expect(res.headers).not.to.have.property('access-control-allow-origin');
      } finally {
        await plain.close();
      }
    });

    it('the configuration refuses credentials with the wildcard origin', () => {
      expect(() => finishConfig({ server: { cors: { origins: ['*'], credentials: true } } })).to.throw(
        /credentials are never allowed with the wildcard origin/,
      );
      expect(finishConfig({ server: { cors: { origins: ['*'] } } }).server.cors.origins).to.deep.equal(['*']);
      expect(() => finishConfig({ server: { cors: { origins: ['app.example/path'] } } })).to.throw(/origins/);
    });
  });

  it('at start, retries an unreachable database with backoff until the limit, logging each attempt', async () => {
    const config = finishConfig({ database: { url: 'postgres://nobody@127.0.0.1:1/none' } });
    const db = createDb(config);
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => warnings.push(o) } as never;
    const started = Date.now();
    try {
      await connectWithRetry(db, 1200, logger);
      expect.fail('should not connect');
    } catch (err) {
      expect((err as Error).message).to.contain('Database unreachable');
    } finally {
      await db.destroy();
    }
    // Pauses of 0.25 s and 0.5 s fit in 1.2 s; 1 s more would not.
    expect(warnings).to.have.length(2);
    expect(Date.now() - started).to.be.within(700, 5000);
  });
});
