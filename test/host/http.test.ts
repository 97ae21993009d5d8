import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type KernelError } from '../../kernel';
import { collectRoutes, startServer } from '../../host';
import { bootTestKernel, type TestKernel } from '../../host/testing';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins');

describe('kernel/http', () => {
  let testKernel: TestKernel;
  before(async () => {
    testKernel = await bootTestKernel({ plugins: ['system', 'ok-a'], pluginDirs: [fixtures] });
  });
  after(() => testKernel.close());

  it('serves /healthz when the database answers', async () => {
    const res = await (await testKernel.http()).get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
  });

  it('gives every response a request id, keeping a well-formed incoming one', async () => {
    const http = await testKernel.http();
    expect((await http.get('/healthz')).headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect((await http.get('/healthz').set('X-Request-Id', 'abc-123')).headers['x-request-id']).to.equal('abc-123');
    expect((await http.get('/healthz').set('X-Request-Id', 'spaces and/slashes')).headers['x-request-id']).to.match(
      /^[0-9a-f-]{36}$/,
    );
  });

  it('answers an unknown path with a JSON 404', async () => {
    const res = await (await testKernel.http()).get('/no/such/path');
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('E_NOT_FOUND');
  });

  it('hides an unexpected error from the caller but logs it with the request id', async () => {
    const res = await (await testKernel.http()).get('/fixture/throw').set('X-Request-Id', 'trace-me');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ error: { code: 'E_INTERNAL', message: 'Internal error' } });
    expect(res.text).to.not.contain('hunter2');
    const line = testKernel.logs.find((l) => l.includes('trace-me'));
    expect(line).to.contain('E_INTERNAL').and.contain('hunter2');
  });

  it('answers a malformed JSON body with 400, not 500', async () => {
    const res = await (
      await testKernel.http()
    )
      .post('/fixture/echo')
      .set('Content-Type', 'application/json')
      .send('{"a":');
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('E_BAD_REQUEST');
  });

  it('parses urlencoded, JSON and multipart bodies', async () => {
    const http = await testKernel.http();
    expect((await http.post('/fixture/echo').type('form').send('a=1&b=two')).body.body).to.deep.include({
      a: '1',
      b: 'two',
    });
    expect((await http.post('/fixture/echo').send({ a: [1] })).body.body).to.deep.equal({ a: [1] });
    expect((await http.post('/fixture/echo').field('entity', 'Contact')).body.body).to.have.property('entity');
  });

  it('reads a form as koa-body would: nested and dotted keys as qs reads them, 413 beyond 2 MB', async () => {
    const http = await testKernel.http();
    const nested = await http.post('/fixture/echo').type('form').send('options[limit]=5&contact_id.1=3&a=x+y');
    expect(nested.body.body).to.deep.equal({ options: { limit: '5' }, contact_id: ['3'], a: 'x y' });
    const big = await http
      .post('/fixture/echo')
      .type('form')
      .send(`a=${'x'.repeat(2 * 1024 * 1024)}`);
    expect(big.status).to.equal(413);
    expect(big.body.error.code).to.equal('E_BAD_REQUEST');
  });

  it('refuses a multipart file upload with a 4xx instead of storing it', async () => {
    const res = await (
      await testKernel.http()
    )
      .post('/fixture/echo')
      .field('entity', 'Contact')
      .attach('file', Buffer.from('x'.repeat(100)), 'a.txt');
    expect(res.status).to.be.within(400, 499);
    expect(res.body.error.code).to.equal('E_BAD_REQUEST');
  });

  it('answers 503 E_DATABASE from /healthz when the database is gone', async () => {
    const t2 = await bootTestKernel({ plugins: ['system'] });
    const http = await t2.http();
    await t2.kernel.db.destroy();
    const res = await http.get('/healthz');
    expect(res.status).to.equal(503);
    expect(res.body.error.code).to.equal('E_DATABASE');
    await t2.close().catch(() => undefined);
  });

  it('refuses two plugins contributing the same route, naming both', async () => {
    const t3 = await bootTestKernel({ plugins: ['ok-a', 'dup-route'], pluginDirs: [fixtures] });
    try {
      await collectRoutes(t3.kernel);
      throw new Error('expected a clash');
    } catch (err) {
      expect((err as KernelError).code).to.equal('E_HOOK_DUPLICATE');
      expect((err as Error).message)
        .to.contain('ok-a')
        .and.contain('dup-route');
    } finally {
      await t3.close();
    }
  });

  it('finishes in-flight requests on shutdown, then stops accepting', async () => {
    const t4 = await bootTestKernel({ plugins: ['ok-a'], pluginDirs: [fixtures], config: { server: { port: 0 } } });
    try {
      const running = await startServer(t4.kernel);
      const inflight = fetch(`${running.url}/fixture/slow?ms=400`).then((r) => r.json());
      await new Promise((r) => setTimeout(r, 100));
      const stopped = running.stop();
      expect(await inflight).to.deep.equal({ done: true });
      await stopped;
      let refused = false;
      await fetch(`${running.url}/fixture/slow?ms=1`).catch(() => {
        refused = true;
      });
      expect(refused).to.equal(true);
    } finally {
      // The server's stop closed the kernel; this drops the test's schema (PostgreSQL) too.
      await t4.close();
    }
  });
});
