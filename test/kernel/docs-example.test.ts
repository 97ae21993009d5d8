/** The examples in docs/plugin-authoring.md must work as written: extract them, boot them, call them. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { BUILTIN_PLUGINS_DIR, discoverPlugins } from '../../kernel';
import { bootTestKernel, principalWith, type TestKernel } from '../../host/testing';
import { makeMigrations } from '../../cli/migrations';
import type { IdentityStore } from '../../plugins/users';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const USERS_CONFIG = {
  siteKey: 'site-key-for-docs-test',
  signingKeys: [{ kid: 'k1', secret: 'k1-secret-0123456789abcdef0123456789abcdef' }],
};

/** A user holding `permissions` and an API key, as AuthX bearer headers. */
async function apiKeyHeaders(t: TestKernel, permissions: string[]) {
  const identity = t.kernel.container.resolve('identity') as IdentityStore;
  const db = t.kernel.db;
  await identity.ensureRole(db, 'visitor');
  await identity.grantPermissions(db, 'visitor', ['authenticate with api key', ...permissions]);
  const user = await identity.createUser(db, { username: 'visitor', password: 'pw-for-tests-123', roles: ['visitor'] });
  const { key } = await identity.createApiKey(db, user.contact_id);
  return {
    headers: { Authorization: `Bearer ${key}`, 'X-Requested-With': 'XMLHttpRequest' },
    contactId: user.contact_id,
  };
}

/** Writes the tutorial's plugin (its manifest and register.ts, from the doc's first code blocks) to a temporary folder. */
function writeTutorialPlugin(): { dir: string; config: { enable: string[]; pluginConfig: Record<string, unknown> } } {
  const doc = readFileSync(path.join(root, 'docs/plugin-authoring.md'), 'utf8');
  const blocks = [...doc.matchAll(/```(json|ts)\n([\s\S]*?)```/g)].map((m) => m[2]);
  const register = blocks[1]
    .replace("'../../kernel'", JSON.stringify(path.join(root, 'kernel/index.ts')))
    .replace("'../../host'", JSON.stringify(path.join(root, 'host/index.ts')));
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-doc-'));
  mkdirSync(path.join(dir, 'greeter'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
  writeFileSync(path.join(dir, 'greeter', 'manifest.json'), blocks[0]);
  writeFileSync(path.join(dir, 'greeter', 'register.ts'), register);
  return { dir, config: JSON.parse(blocks[2]) };
}

describe('docs/plugin-authoring.md', () => {
  it('the first plugin works as written', async () => {
    const { dir, config } = writeTutorialPlugin();
    const testKernel = await bootTestKernel({
      plugins: config.enable,
      pluginDirs: [dir],
      config: { pluginConfig: config.pluginConfig },
    });
    try {
      const res = await testKernel.kernel.call({
        entity: 'Greeting',
        action: 'get',
        params: { name: 'Ann' },
        principal: principalWith(['access CRM']),
      });
      expect(res).to.deep.equal({ is_error: 0, version: 3, count: 1, values: [{ text: 'Hi, Ann' }] });
      const http = await testKernel.http();
      expect((await http.get('/hello')).body).to.deep.equal({ text: 'Hi!' });
    } finally {
      await testKernel.close();
    }
  });

  // The REST binding's own params (`check_permissions`, `version`) never reach an action whose schema is strict.
  it('the first plugin answers Greeting.get over REST (/crm/ajax/rest)', async () => {
    const { dir } = writeTutorialPlugin();
    const testKernel = await bootTestKernel({
      plugins: ['greeter', 'rest-api3', 'auth-authx'],
      pluginDirs: [dir],
      logLevel: 'warn',
      config: { pluginConfig: { greeter: { greeting: 'Hi' }, users: USERS_CONFIG } },
    });
    try {
      const auth = await apiKeyHeaders(testKernel, ['access CRM', 'access AJAX API']);
      const res = await (
        await testKernel.http()
      )
        .get('/crm/ajax/rest')
        .query({ entity: 'Greeting', action: 'get', json: JSON.stringify({ name: 'Ann' }) })
        .set(auth.headers);
      expect(res.body).to.deep.equal({ is_error: 0, version: 3, count: 1, values: [{ text: 'Hi, Ann' }] });
    } finally {
      await testKernel.close();
    }
  });

  describe('an entity in one file', function () {
    this.timeout(120000);
    let testKernel: TestKernel;
    let dir: string;
    let auth: Record<string, string>;
    let contactId: number;

    before(async () => {
      const doc = readFileSync(path.join(root, 'docs/plugin-authoring.md'), 'utf8');
      const section = doc.slice(doc.indexOf('## An entity in one file'), doc.indexOf('## The manifest'));
      const [manifest, entity] = [...section.matchAll(/```(json|ts)\n([\s\S]*?)```/g)].map((m) => m[2]);
      dir = mkdtempSync(path.join(tmpdir(), 'crm-doc-entity-'));
      mkdirSync(path.join(dir, 'guestbook', 'entities'), { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
      writeFileSync(path.join(dir, 'guestbook', 'manifest.json'), manifest);
      writeFileSync(path.join(dir, 'guestbook', 'entities', 'GuestbookEntry.ts'), entity);
      // What `npm run migrations -- add_guestbook` does, over the built-in plugins plus this one.
      const written = await makeMigrations(discoverPlugins([BUILTIN_PLUGINS_DIR, dir]).found, 'add_guestbook');
      expect(written.map((w) => w.plugin)).to.deep.equal(['guestbook']);
      expect(existsSync(path.join(dir, 'guestbook', 'migrations', '001_add_guestbook.ts'))).to.equal(true);
      expect(section, 'the step count the tutorial shows').to.contain(`guestbook: ${written[0].steps} step(s)`);
      testKernel = await bootTestKernel({
        plugins: ['users', 'auth-authx', 'rest-api3', 'rest-api4', 'guestbook'],
        pluginDirs: [dir],
        logLevel: 'warn',
        config: {
          pluginConfig: { users: USERS_CONFIG },
        },
      });
      const visitor = await apiKeyHeaders(testKernel, ['access CRM', 'access AJAX API']);
      auth = visitor.headers;
      contactId = visitor.contactId;
    });
    after(() => testKernel?.close());

    const api3 = async (action: string, params: Record<string, unknown>) =>
      action === 'get'
        ? (await testKernel.http())
            .get('/crm/ajax/rest')
            .query({ entity: 'GuestbookEntry', action, json: JSON.stringify(params) })
            .set(auth)
        : (await testKernel.http())
            .post('/crm/ajax/rest')
            .set(auth)
            .type('form')
            .send({ entity: 'GuestbookEntry', action, json: JSON.stringify(params) });
    const api4 = async (action: string, params: Record<string, unknown>) =>
      (await testKernel.http())
        .post(`/crm/ajax/api4/GuestbookEntry/${action}`)
        .set(auth)
        .type('form')
        .send({ params: JSON.stringify(params) });

    it('creates over APIv4 and reads over APIv3, with the column defaults', async () => {
      const created = await api4('create', { values: { contact_id: contactId, message: 'Lovely garden', rating: 3 } });
      expect(created.status, created.text).to.equal(200);
      const id = created.body.values[0].id as number;
      const res = await api3('get', { contact_id: contactId });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ is_error: 0, count: 1, id });
      expect(res.body.values[id]).to.include({ id: String(id), message: 'Lovely garden', rating: '3', is_public: '1' });
      expect(res.body.values[id].created_date).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    it('creates over APIv3 and filters over APIv4; the metadata decides fields and permissions', async () => {
      const created = await api3('create', { contact_id: contactId, message: 'Too windy', rating: 1, is_public: 0 });
      expect(created.body, created.text).to.include({ is_error: 0, count: 1 });
      const found = await api4('get', { where: [['rating', '>=', 2]], select: ['message', 'is_public'] });
      expect(found.body.values).to.deep.equal([{ message: 'Lovely garden', is_public: true }]);
      const unknown = await api4('get', { where: [['mood', '=', 'sunny']] });
      expect(unknown.status).to.equal(400);
      // delete falls to the `default` permission (administer CRM), which the visitor lacks.
      const refused = await api4('delete', { where: [['id', '>', 0]] });
      expect(refused.status).to.equal(403);
    });

    it('deleting the contact deletes its entries (onDelete: cascade)', async () => {
      const other = await testKernel.kernel.db('crm_contact').insert({ contact_type: 'Individual' }).returning('id');
      const otherId = (other[0] as { id: number }).id;
      await testKernel.kernel.db('crm_guestbook_entry').insert({ contact_id: otherId, message: 'Bye' });
      await testKernel.kernel.db('crm_contact').where('id', otherId).delete();
      expect(await testKernel.kernel.db('crm_guestbook_entry').where('contact_id', otherId)).to.have.length(0);
    });
  });
});
