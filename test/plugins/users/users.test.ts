import { expect } from 'chai';
import { cliCommands, cliContext, type CliCommand } from '../../../host';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import { hashPassword, verifyPassword } from '../../../plugins/users/crypto';
import { firstRun } from '../../../plugins/users/first-run';
import { Keyring } from '../../../plugins/users/keyring';
import type { IdentityStore } from '../../../plugins/users/store';
import { bootAuth, logsHold, PASSWORD, SITE_KEY, type AuthKernel } from '../../fixtures/auth';

describe('users: passwords', () => {
  it('hashes with scrypt and a salt; verifies only the right password', async () => {
    const a = await hashPassword('s3cret-password');
    const b = await hashPassword('s3cret-password');
    expect(a).to.match(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(a).to.not.equal(b);
    expect(await verifyPassword('s3cret-password', a)).to.equal(true);
    expect(await verifyPassword('s3cret-passworD', a)).to.equal(false);
    expect(await verifyPassword('anything', null)).to.equal(false);
    expect(await verifyPassword('anything', 'scrypt$garbage')).to.equal(false);
  });
});

describe('users: seeded roles, secrets and first run', () => {
  let testKernel: TestKernel;
  let identity: IdentityStore;
  before(async () => {
    testKernel = await bootTestKernel({ plugins: ['users'] });
    identity = testKernel.kernel.container.resolve('identity') as IdentityStore;
  });
  after(() => testKernel.close());

  it('seeds the anonymous, authenticated and administrator roles', async () => {
    const roles = await identity.listRoles(testKernel.kernel.db);
    expect(roles.map((r) => r.name)).to.deep.equal(['anonymous', 'authenticated', 'administrator']);
    expect(roles.find((r) => r.name === 'administrator')!.permissions).to.deep.equal(['*']);
  });

  it('generates the site key, the JWT key and the session secret once, stored for every instance', async () => {
    const mine = testKernel.kernel.container.cradle.keyring;
    const other = new Keyring({});
    await other.load(testKernel.kernel.db);
    expect(other.siteKey).to.equal(mine.siteKey).and.have.length.greaterThan(16);
    expect(other.currentSigningKey.kid).to.equal(mine.currentSigningKey.kid);
    expect(other.sessionSecret).to.equal(mine.sessionSecret);
  });

  it('sessions started by one instance are read by another (secret and rows in the database); expired ones are not', async () => {
    const { SessionStore } = await import('../../../plugins/users/sessions');
    const other = new Keyring({});
    await other.load(testKernel.kernel.db);
    const firstStore = testKernel.kernel.container.cradle.sessions;
    const secondStore = new SessionStore(other, firstStore.options);
    const contactId = await testKernel.kernel.container.cradle.identity.createContact(
      testKernel.kernel.db,
      'Session Contact',
    );
    const cookie = await firstStore.start(testKernel.kernel.db, { contactId, userId: null });
    expect(await secondStore.read(testKernel.kernel.db, cookie)).to.include({ contactId, userId: null });
    await testKernel.kernel
      .db('crm_session')
      .update({ expires_at: testKernel.kernel.db.raw("now() - interval '1 second'") });
    expect(await secondStore.read(testKernel.kernel.db, cookie)).to.equal(undefined);
  });

  it('refuses a configured site key shorter than 8 characters', () => {
    expect(() => new Keyring({ siteKey: 'short' })).to.throw(/at least 8/);
  });

  it('does not run the first-run set-up in test mode', async () => {
    expect(await identity.countUsers(testKernel.kernel.db)).to.equal(0);
  });

  it('first run creates an administrator with a working key and prints how to call the API, once', async () => {
    let out = '';
    const keyring = testKernel.kernel.container.cradle.keyring;
    const result = await firstRun(testKernel.kernel.db, identity, keyring, 'http://localhost:8080', (s) => (out += s));
    expect(result).to.not.equal(null);
    expect(out).to.include(result!.apiKey).and.include(keyring.siteKey).and.include(result!.password);
    expect(out).to.include("curl -s 'http://localhost:8080/crm/ajax/rest'");
    expect(out)
      .to.include(`-H 'X-Crm-Auth: Bearer ${result!.apiKey}'`)
      .and.include("-H 'X-Requested-With: XMLHttpRequest'");
    const users = await identity.listUsers(testKernel.kernel.db);
    expect(users).to.have.length(1);
    expect(users[0].roles).to.deep.equal(['administrator']);
    expect(await identity.contactForApiKey(testKernel.kernel.db, result!.apiKey)).to.equal(users[0].contact_id);
    // Nothing printed twice, nothing logged.
    let again = '';
    expect(
      await firstRun(testKernel.kernel.db, identity, keyring, 'http://localhost:8080', (s) => (again += s)),
    ).to.equal(null);
    expect(again).to.equal('');
    const logs = testKernel.logs.join('\n');
    for (const secret of [result!.apiKey, result!.password, keyring.siteKey]) expect(logs).to.not.include(secret);
  });

  it('stores API keys hashed, never in clear', async () => {
    const { key } = await identity.createApiKey(testKernel.kernel.db, 1);
    const rows = await testKernel.kernel.db('crm_api_key').select('*');
    expect(JSON.stringify(rows)).to.not.include(key);
    expect(JSON.stringify(rows)).to.not.include(key.slice(10));
  });
});

describe('users: permissions on the principal', () => {
  let k: AuthKernel;
  before(async () => {
    k = await bootAuth({ plugins: ['fake-compat', 'system'] });
  });
  after(async () => {
    expect(logsHold(k)).to.deep.equal([]);
    await k.t.close();
  });
  const AJAX = '/crm/ajax/rest';

  it('anonymous callers get the anonymous role', async () => {
    expect((await k.req().get(AJAX)).body.permissions).to.deep.equal([]);
    await k.identity.grantPermissions(k.t.kernel.db, 'anonymous', ['access CRM']);
    // compat aliases: the alias is held under both names
    expect((await k.req().get(AJAX)).body.permissions).to.deep.equal(['access CRM', 'access CiviCRM']);
    await k.identity.revokePermissions(k.t.kernel.db, 'anonymous', ['access CRM']);
  });

  it('users get authenticated + their roles; the kernel authorizes with them', async () => {
    const res = await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.admin.key}`);
    expect(res.body.permissions).to.include.members(['*', 'view my contact', 'edit my contact']);
    const admin = { ...res.body, permissions: new Set<string>(res.body.permissions) };
    expect(await k.t.kernel.can('System', 'get', admin)).to.equal(true);
    const bob = (await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`)).body;
    expect(await k.t.kernel.can('System', 'get', { ...bob, permissions: new Set<string>(bob.permissions) })).to.equal(
      false,
    );
  });

  it('a role granted an aliased name (administer CiviCRM) holds the service name too', async () => {
    await k.identity.grantPermissions(k.t.kernel.db, 'apiuser', ['administer CiviCRM']);
    const bob = (await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`)).body;
    expect(bob.permissions).to.include.members(['administer CRM', 'administer CiviCRM']);
    expect(await k.t.kernel.can('System', 'get', { ...bob, permissions: new Set<string>(bob.permissions) })).to.equal(
      true,
    );
    const rows = await k.t.kernel
      .db('crm_role_permission')
      .join('crm_role', 'crm_role.id', 'role_id')
      .where('crm_role.name', 'apiuser')
      .pluck('permission');
    expect(rows).to.include('administer CRM').and.not.include('administer CiviCRM');
  });
});

describe('users: CLI commands', () => {
  let k: AuthKernel;
  let commands: Map<string, CliCommand>;
  const printed: string[] = [];
  before(async () => {
    k = await bootAuth();
    commands = new Map((await k.t.kernel.hooks.run(cliCommands)).map((c) => [c.name, c]));
  });
  after(async () => {
    expect(
      logsHold(
        k,
        printed.flatMap((p) => p.split(/\s+/)).filter((w) => w.length > 20),
      ),
    ).to.deep.equal([]);
    await k.t.close();
  });
  const run = async (name: string, args: string[] = [], options: Record<string, unknown> = {}) => {
    const out = String((await commands.get(name)!.run(args, options, cliContext(k.t.kernel))) ?? '');
    printed.push(out);
    return out;
  };
  const AJAX = '/crm/ajax/rest';

  it('contributes every command the manifest lists', async () => {
    const manifest = (await import('../../../plugins/users/manifest.json')).default;
    const mine = (await k.t.kernel.hooks.collectAttributed(cliCommands))
      .filter((c) => c.plugin === 'users')
      .map((c) => c.item.name);
    expect(mine.sort()).to.deep.equal([...manifest.provides.cli].sort());
  });

  it('user add with a generated password printed once; the password logs in', async () => {
    const out = await run('user add', ['erin'], { roles: 'administrator' });
    expect(out).to.match(/^Created user erin \(id \d+, contact \d+\) with roles administrator\./);
    const password = /Password \(shown once\): (\S+)/.exec(out)![1];
    const res = await k.req().post('/crm/login').type('form').send({ username: 'erin', password });
    expect(res.status).to.equal(303);
  });

  it('user add links an existing contact, refuses duplicates and bad input', async () => {
    const identity = k.t.kernel.container.resolve('identity') as import('../../../plugins/users/store').IdentityStore;
    const contact = String(await identity.createContact(k.t.kernel.db, 'Frank Contact'));
    const out = await run('user add', ['frank'], { contact, password: 'frank-password' });
    expect(out).to.include(`contact ${contact}`);
    for (const [args, options] of [
      [['frank'], { password: 'another-password' }],
      [['FRANK'], {}],
      [['x y'], {}],
      [['gina'], { contact: 'abc' }],
      [['gina'], { password: 'short' }],
      [['hank'], { contact }],
      [['ivan'], { contact: '987654' }],
    ] as const) {
      let err: unknown;
      try {
        await run('user add', [...args], { ...options });
      } catch (thrown) {
        err = thrown;
      }
      expect(err, JSON.stringify(args))
        .to.have.property('code')
        .that.is.oneOf(['E_INVALID_PARAMS', 'E_CONFLICT', 'E_NOT_FOUND']);
    }
  });

  it('user list shows users, contacts, state and roles, and no secret', async () => {
    const out = await run('user list');
    expect(out.split('\n')[0]).to.equal('ID\tUSERNAME\tCONTACT\tSTATE\tROLES');
    expect(out).to.match(/\tadmin\t\d+\tactive\tadministrator/);
    expect(out).to.match(/\tcarol\t\d+\tdisabled\tapiuser/);
    expect(out).to.not.include('scrypt');
    const json = JSON.parse(await run('user list', [], { json: true })) as Array<Record<string, unknown>>;
    expect(json.find((u) => u.username === 'carol')).to.include({ state: 'disabled' });
    expect(JSON.stringify(json)).to.not.include('scrypt');
  });

  it('user passwd changes the password', async () => {
    await run('user passwd', ['alice'], { password: 'a-brand-new-password' });
    expect(
      (await k.req().post('/crm/login').type('form').send({ username: 'alice', password: PASSWORD })).status,
    ).to.equal(401);
    expect(
      (await k.req().post('/crm/login').type('form').send({ username: 'alice', password: 'a-brand-new-password' }))
        .status,
    ).to.equal(303);
  });

  it('user disable refuses every credential of the user; user enable restores them', async () => {
    await run('user disable', ['bob']);
    expect((await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`)).text).to.equal(
      'HTTP 401 Cannot login. User is blocked.',
    );
    await run('user enable', ['bob']);
    expect((await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.bob.key}`)).body).to.include({
      contactId: k.cast.bob.contactId,
    });
  });

  it('role grant / revoke permissions, and give / take a role', async () => {
    expect(await run('role grant', ['editor', 'view all contacts', 'edit all contacts'])).to.equal(
      'Role editor now holds: view all contacts, edit all contacts.',
    );
    let err: { code?: string } = {};
    await run('role grant', ['editor', 'fly to the moon']).catch((e) => (err = e));
    expect(err.code).to.equal('E_INVALID_PARAMS');
    await run('role grant', ['editor', 'custom thing'], { force: true });
    await run('role grant', ['editor'], { user: 'alice' });
    let list = await run('role list');
    expect(list).to.include('editor: custom thing, edit all contacts, view all contacts\n  users: alice');
    const alice = (await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${k.cast.alice.key}`).set('X-Crm-Key', SITE_KEY))
      .body;
    expect(alice.permissions).to.include('edit all contacts');
    await run('role revoke', ['editor', 'custom thing']);
    await run('role revoke', ['editor'], { user: 'alice' });
    list = await run('role list');
    expect(list).to.match(/^editor: edit all contacts, view all contacts$/m);
    expect(list).to.not.include('users: alice');
    expect(await run('role list', [], { catalogue: true })).to.include(
      'authenticate with api key\tAuthX: authenticate to services with API key',
    );
  });

  it('key create prints the key once; key list never shows it; key revoke stops it', async () => {
    const out = await run('key create', [], { user: 'bob', label: 'sync job' });
    const key = out.split('\n')[1];
    expect(key).to.match(/^crm_[\w-]{32}$/);
    expect((await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${key}`)).body).to.include({
      contactId: k.cast.bob.contactId,
    });
    const list = await run('key list');
    expect(list).to.include('sync job').and.include(key.slice(0, 10)).and.not.include(key);
    const id = /^API key (\d+)/.exec(out)![1];
    expect(await run('key revoke', [id])).to.equal('Revoked 1 API key(s).');
    expect((await k.req().get(AJAX).set('X-Crm-Auth', `Bearer ${key}`)).text).to.equal('HTTP 401 Invalid credential');
    let err: { code?: string } = {};
    await run('key revoke', [id]).catch((e) => (err = e));
    expect(err.code).to.equal('E_NOT_FOUND');
  });

  it('jwt issue makes a token AuthX accepts, for existing contacts only', async () => {
    const tok = await run('jwt issue', [], { contact: String(k.cast.alice.contactId), ttl: '120' });
    const res = await k.req().get('/crm/authx/id').set('Authorization', `Bearer ${tok}`);
    expect(res.body).to.deep.equal({
      contact_id: k.cast.alice.contactId,
      user_id: k.cast.alice.userId,
      flow: 'header',
      cred: 'jwt',
    });
    let err: { code?: string } = {};
    await run('jwt issue', [], { contact: '999999' }).catch((e) => (err = e));
    expect(err.code).to.equal('E_NOT_FOUND');
  });
});
