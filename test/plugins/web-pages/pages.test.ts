/** The web pages over HTTP: home, login with CSRF, the explorer's gate and contents, assets, headers. */
import { expect } from 'chai';
import supertest from 'supertest';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import { contactExamples } from '../../../plugins/entity-contact';
import { escapeHtml, jsonForScript } from '../../../plugins/web-pages';
import { hiddenValue, loginAgent, seedWebUsers, WEB_PASSWORD } from '../../support/web';

describe('web-pages', function () {
  this.timeout(30000);
  let testKernel: TestKernel;
  const fresh = async () => supertest.agent((await testKernel.app()).callback());
  before(async () => {
    testKernel = await bootTestKernel();
    await seedWebUsers(testKernel);
  });
  after(() => testKernel?.close());

  it('serves the home page to a visitor with a login form, a CSRF cookie and a strict policy', async () => {
    const res = await (await fresh()).get('/');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    const csp = res.headers['content-security-policy'];
    expect(csp).to.include("script-src 'self'").and.include("frame-ancestors 'none'").and.include("form-action 'self'");
    expect(csp).to.not.include('unsafe-inline');
    expect(res.headers['x-frame-options']).to.equal('DENY');
    expect(res.text).to.include('action="/crm/login"').and.include('for="login-username"');
    expect(hiddenValue(res.text, 'csrf')).to.match(/^[A-Za-z0-9_-]{40,}$/);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('crm_csrf='));
    expect(cookie?.toLowerCase()).to.include('httponly').and.include('samesite=strict');
    // Links that need a permission are not shown to a visitor.
    expect(res.text).to.not.include('href="/crm/api4"');
  });

  it('logs in through the form, and refuses a post whose token does not match the browser cookie', async () => {
    const agent = await fresh();
    const form = await agent.get('/crm/login?destination=/crm/api4');
    expect(form.headers['content-security-policy']).to.include("default-src 'self'");
    const forged = await agent
      .post('/crm/login')
      .type('form')
      .send({ username: 'staff', password: WEB_PASSWORD, csrf: 'forged-token-forged-token-forged-token-00' });
    expect(forged.status).to.equal(403);
    expect(([] as string[]).concat(forged.headers['set-cookie'] ?? []).join()).to.not.include('crm_session=');
    const csrf = hiddenValue(form.text, 'csrf');
    const ok = await agent
      .post('/crm/login')
      .type('form')
      .send({ username: 'staff', password: WEB_PASSWORD, csrf, destination: '/crm/api4' });
    expect(ok.status).to.equal(303);
    expect(ok.headers.location).to.equal('/crm/api4');
    const home = await agent.get('/');
    expect(home.text).to.include('href="/crm/api4"').and.include('Log out');
  });

  it('sends visitors of the explorer to the login page and back; refuses callers without access CRM', async () => {
    const visitor = await (await fresh()).get('/crm/api3?entity=Contact');
    expect(visitor.status).to.equal(303);
    expect(visitor.headers.location).to.equal('/crm/login?destination=%2Fcrm%2Fapi3%3Fentity%3DContact');
    const nobody = await fresh();
    await loginAgent(nobody, 'nobody');
    const refused = await nobody.get('/crm/api4');
    expect(refused.status).to.equal(403);
    expect(refused.text).to.include('access CRM');
  });

  for (const version of [3, 4] as const) {
    it(`renders the APIv${version} explorer with the caller's entities and the plugin examples`, async () => {
      const agent = await fresh();
      await loginAgent(agent, 'staff');
      const res = await agent.get(`/crm/api${version}`);
      expect(res.status).to.equal(200);
      expect(res.text).to.include(`data-version="${version}"`).and.include('src="/crm/assets/web/explorer.js"');
      const data = JSON.parse(
        /<script type="application\/json" id="explorer-data">([\s\S]*?)<\/script>/.exec(res.text)![1],
      );
      expect(data.entities).to.include('Contact');
      const names = data.examples
        .filter((e: { entity: string }) => e.entity === 'Contact')
        .map((e: { name: string }) => e.name);
      expect(names).to.include('Individuals by name');
      for (const id of ['x-entity', 'x-action', 'x-select', 'x-limit', 'x-params', 'x-chain', 'x-sort-field'])
        expect(res.text, id).to.match(new RegExp(`<label for="${id}">`));
    });
  }

  it('every contributed Contact example runs without error', async () => {
    const admin = principalWith(['*'], 1);
    for (const example of contactExamples) {
      const result = (await testKernel.kernel.call({
        version: example.version,
        entity: example.entity,
        action: example.action,
        params: example.params,
        principal: admin,
      })) as { is_error?: number; values?: unknown };
      expect(result, example.name).to.not.have.property('is_error', 1);
    }
  });

  it('serves its assets and nothing else from the assets route', async () => {
    const http = await fresh();
    const css = await http.get('/crm/assets/web/style.css');
    expect(css.status).to.equal(200);
    expect(css.headers['content-type']).to.match(/^text\/css/);
    expect((await http.get('/crm/assets/web/explorer.js')).headers['content-type']).to.match(/^text\/javascript/);
    for (const bad of ['/crm/assets/web/..%2Fregister.ts', '/crm/assets/web/register.ts', '/crm/assets/web/nope.js'])
      expect((await http.get(bad)).status, bad).to.equal(404);
  });

  it('escapes output: HTML text and JSON inside a script block', () => {
    expect(escapeHtml(`<b a="1">'&`)).to.equal('&lt;b a=&quot;1&quot;&gt;&#39;&amp;');
    const block = jsonForScript({ name: '</script><script>alert(1)</script>' });
    expect(block).to.not.include('</script>');
    expect(JSON.parse(block).name).to.equal('</script><script>alert(1)</script>');
  });

  it('logs out with the session token, and refuses a logout post with a wrong token', async () => {
    const agent = await fresh();
    await loginAgent(agent, 'staff');
    const home = await agent.get('/');
    const token = hiddenValue(home.text, 'csrf');
    expect((await agent.post('/crm/logout').type('form').send({ csrf: 'wrong' })).status).to.equal(403);
    expect((await agent.get('/crm/api4')).status).to.equal(200);
    const out = await agent.post('/crm/logout').type('form').send({ csrf: token });
    expect(out.status).to.equal(303);
    expect((await agent.get('/crm/api4')).status).to.equal(303);
  });
});
