/**
 * The pages in a real browser (system Chromium through playwright-core), as a newcomer uses them: log
 * in, explore Contact.get through APIv4 and APIv3, run a plugin example, open the API reference, create
 * an OAuth client, connect it against the real oidc-provider test server with the Connect button, see
 * the token and refresh it. Each page is checked with axe-core and saved as a screenshot.
 */
import type { Server } from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bootTestKernel, principalWith, type TestKernel } from '../../host/testing';
import { expectAccessible, launchOrSkip, screenshot, watchProblems } from '../support/browser';
import {
  closedPort,
  OIDC_CLIENT,
  startOAuthServers,
  stopOAuthTest,
  tempDataDir,
  writeTestProviders,
  type RunningOAuthServers,
} from '../support/oauth-servers';
import { seedWebUsers, WEB_PASSWORD } from '../support/web';

describe('browser: home, login, API Explorer, API reference, OAuth administration', function () {
  this.timeout(90000);
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let servers: RunningOAuthServers;
  let testKernel: TestKernel;
  let server: Server;
  let dataDir: string;
  let base: string;

  before(async function () {
    browser = await launchOrSkip(this);
    // The service listens on a real port, known before oidc-provider starts, so its redirect URI is registered there.
    base = await closedPort();
    const port = Number(new URL(base).port);
    servers = await startOAuthServers({ extraRedirectUris: [`${base}/crm/oauth-client/return`] });
    dataDir = tempDataDir();
    writeTestProviders(servers, path.join(dataDir, 'oauth-providers'));
    testKernel = await bootTestKernel({ config: { dataDir, server: { host: '127.0.0.1', port } } });
    await seedWebUsers(testKernel);
    await testKernel.kernel.call({
      version: 4,
      entity: 'Contact',
      action: 'create',
      params: { values: { contact_type: 'Individual', first_name: 'Grace', last_name: 'Hopper' } },
      principal: principalWith(['*'], 1),
    });
    const app = await testKernel.app();
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(port, '127.0.0.1', () => resolve(s));
    });
    context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    page = await context.newPage();
    problems = watchProblems(page);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await stopOAuthTest(testKernel, servers, dataDir);
  });
  afterEach(() => {
    expect(problems.splice(0), 'CSP violations or page errors').to.deep.equal([]);
  });

  it('shows the home page to a visitor, with the login form', async () => {
    await page.goto(`${base}/`);
    await expect(await page.textContent('h1')).to.equal('CRM service');
    expect(await page.isVisible('#login-username')).to.equal(true);
    await screenshot(page, 'home');
    await expectAccessible(page, 'home');
  });

  it('logs in through the login page', async () => {
    // The header's Log in link brings the visitor back to the page it was on.
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(`${base}/crm/login?destination=%2F`);
    await page.getByLabel('Username').fill('oauthadmin');
    await page.getByLabel('Password').fill(WEB_PASSWORD);
    await screenshot(page, 'login');
    await expectAccessible(page, 'login');
    await Promise.all([page.waitForURL(`${base}/`), page.getByRole('button', { name: 'Log in' }).click()]);
    expect(await page.textContent('main')).to.include('You are logged in');
    expect(await page.isVisible('a[href="/crm/admin/oauth"]')).to.equal(true);
  });

  it('explores Contact.get through APIv4: field pickers, a filter, run, code in four languages', async () => {
    await page.goto(`${base}/crm/api4`);
    await page.waitForSelector('#explorer[data-ready="true"]');
    expect(await page.inputValue('#x-entity')).to.equal('Contact');
    expect(await page.inputValue('#x-action')).to.equal('get');
    await page.selectOption('#x-select', ['id', 'display_name']);
    await page.click('#x-add-where');
    await page.selectOption('#x-where .x-field', 'last_name');
    await page.fill('#x-where .x-value', 'Hopper');
    const params = JSON.parse(await page.inputValue('#x-params'));
    expect(params).to.deep.include({ select: ['id', 'display_name'], where: [['last_name', '=', 'Hopper']] });
    await page.click('#x-run');
    await page.waitForFunction(() =>
      (globalThis as any).document.getElementById('x-response')!.textContent!.includes('values'),
    );
    expect(await page.textContent('#x-response')).to.include('Grace Hopper');
    expect(await page.textContent('#x-status')).to.match(/^HTTP 200/);
    expect(await page.textContent('#x-code')).to.include(`curl -X POST '${base}/crm/ajax/api4/Contact/get'`);
    for (const [tab, needle] of [
      ['JavaScript (fetch)', 'await fetch('],
      ['Python (requests)', 'requests.post('],
      ['PHP', 'curl_init('],
    ]) {
      await page.getByRole('button', { name: tab }).click();
      expect(await page.textContent('#x-code'), tab)
        .to.include(needle)
        .and.include('Hopper');
    }
    await screenshot(page, 'explorer-api4');
    await expectAccessible(page, 'APIv4 explorer');
  });

  it('runs a plugin-supplied example (APIv4 Contact "Individuals by name")', async () => {
    await page.click('button[data-example="Individuals by name"]');
    expect(await page.textContent('#x-status')).to.include('Individuals by name');
    expect(JSON.parse(await page.inputValue('#x-params')).where).to.deep.equal([['contact_type', '=', 'Individual']]);
    await page.click('#x-run');
    await page.waitForFunction(() =>
      (globalThis as any).document.getElementById('x-status')!.textContent!.startsWith('HTTP'),
    );
    expect(await page.textContent('#x-status')).to.match(/^HTTP 200/);
    expect(await page.textContent('#x-response')).to.include('Grace Hopper');
  });

  it('explores Contact.get through APIv3', async () => {
    await page.goto(`${base}/crm/api3`);
    await page.waitForSelector('#explorer[data-ready="true"]');
    await page.selectOption('#x-select', ['display_name']);
    await page.fill('#x-limit', '5');
    expect(JSON.parse(await page.inputValue('#x-params'))).to.deep.equal({
      return: ['display_name'],
      options: { limit: 5 },
    });
    await page.click('#x-run');
    await page.waitForFunction(() =>
      (globalThis as any).document.getElementById('x-status')!.textContent!.startsWith('HTTP'),
    );
    const response = JSON.parse((await page.textContent('#x-response'))!);
    expect(response.is_error).to.equal(0);
    expect(JSON.stringify(response.values)).to.include('Grace Hopper');
    expect(await page.textContent('#x-code')).to.include("--data-urlencode 'entity=Contact'");
    await screenshot(page, 'explorer-api3');
    await expectAccessible(page, 'APIv3 explorer');
  });

  it('renders the API reference from the OpenAPI document', async () => {
    await page.goto(`${base}/crm/docs/api`);
    await page.waitForSelector('.swagger-ui .information-container', { timeout: 20000 });
    // With many entities Swagger UI renders only the rows in view; the tag filter narrows the list.
    await page.fill('.operation-filter-input', 'Contact');
    await page.waitForSelector('.opblock-summary-path[data-path="/crm/ajax/api4/Contact/get"]');
    await screenshot(page, 'api-reference');
  });

  it('creates an OAuth client, connects it through oidc-provider, sees the token and refreshes it', async () => {
    await page.goto(`${base}/crm/admin/oauth`);
    expect(await page.textContent('#redirect-uri')).to.equal(`${base}/crm/oauth-client/return`);
    await page.selectOption('#client-provider', 'oidc_local');
    await page.fill('#client-guid', OIDC_CLIENT.id);
    await page.fill('#client-secret', OIDC_CLIENT.secret);
    await page.getByRole('button', { name: 'Add client' }).click();
    await page.waitForSelector('text=Client added.');
    expect(await page.content()).to.not.include(OIDC_CLIENT.secret);
    await expectAccessible(page, 'OAuth administration');

    await page.getByRole('button', { name: `Connect oidc_local client ${OIDC_CLIENT.id}` }).click();
    // oidc-provider's development login and consent pages.
    await page.waitForURL(new RegExp(`^${servers.oidc.url}/interaction/`));
    await page.fill('input[name="login"]', 'alice');
    await page.fill('input[name="password"]', 'any-password');
    await page.click('button[type="submit"]');
    await page.waitForURL(new RegExp(`^${servers.oidc.url}/interaction/`));
    await page.click('button[type="submit"]');
    await page.waitForURL(`${base}/crm/admin/oauth?done=connected`);
    expect(await page.textContent('.notice')).to.equal('Connected: the token is stored.');
    const row = page.locator('tr[data-token]');
    expect(await row.count()).to.equal(1);
    expect(await row.textContent())
      .to.include('alice')
      .and.include('authorization_code')
      .and.include('(in 60 min)');
    await page.locator('h2#tokens').evaluate((heading) => heading.scrollIntoView());
    await screenshot(page, 'oauth-admin');

    const [token] = (await testKernel.kernel.db('crm_oauth_systoken')) as Array<Record<string, string>>;
    expect(await page.content()).to.not.include(token.access_token);
    await row.getByRole('button', { name: /^Refresh token/ }).click();
    await page.waitForURL(`${base}/crm/admin/oauth?done=refreshed`);
    expect(await page.textContent('.notice')).to.equal('Token refreshed.');
    const [after] = (await testKernel.kernel.db('crm_oauth_systoken')) as Array<Record<string, string>>;
    expect(after.access_token).to.not.equal(token.access_token);
  });
});
