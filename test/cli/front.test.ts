/**
 * The CLI as a deployer uses it: `--help`, `--version` and argument errors without a database, and every
 * command beside a running `crm serve` on the embedded database (through the socket it shares).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CRM_BIN, ROOT, runCrm } from '../support/cli';

const root = ROOT;
const bin = CRM_BIN;
const run = runCrm;

describe('crm CLI front (no database for --help, --version, argument errors)', function () {
  this.timeout(30000);
  // How fast it answers is measured by `npm run bench:start`, not asserted here (no timed tests).

  it('--version prints package.json version, fast, and creates no data folder', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'crm-front-')), 'data');
    const r = run(['--version'], { CRM_DATA_DIR: dataDir });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    expect(existsSync(dataDir)).to.equal(false);
  });

  it('--help lists the built-in and the plugin commands; a group help lists its subcommands', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'crm-front-')), 'data');
    const r = run(['--help'], { CRM_DATA_DIR: dataDir });
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain('serve').and.contain('api4').and.contain('user').and.contain('secrets');
    const user = run(['user', '--help'], { CRM_DATA_DIR: dataDir });
    expect(user.stdout).to.contain('add [options] <username>').and.contain('list [options]');
    expect(existsSync(dataDir)).to.equal(false);
  });

  it('argument errors: a missing argument, an unknown option, an unknown command; exit 1, no database', () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'crm-front-')), 'data');
    const env = { CRM_DATA_DIR: dataDir };
    const missing = run(['user', 'add'], env);
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.contain("missing required argument 'username'");
    expect(run(['key', 'list', '--bogus'], env).stderr).to.contain("unknown option '--bogus'");
    const unknown = run(['nosuch'], env);
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.contain("unknown command 'nosuch'");
    expect(existsSync(dataDir)).to.equal(false);
  });
});

describe('crm CLI beside a running server on the embedded database', function () {
  this.timeout(120000);
  let child: ChildProcessWithoutNullStreams;
  let dataDir: string;
  let url: string;
  let out = '';
  let robotKey = '';

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'crm-beside-'));
    child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '', CRM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /Listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.stderr.on('data', (d) => (out += d));
      child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
    });
  });

  after(async () => {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  const cli = (...args: string[]) => run(args, { CRM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

  it('serve did the first-run set-up and shares the database on a socket only its user can open', () => {
    expect(out).to.contain('First run: an administrator was created');
    const socket = path.join(dataDir, '.s.PGSQL.5432');
    expect(statSync(socket).isSocket()).to.equal(true);
    expect(statSync(socket).mode & 0o077).to.equal(0);
  });

  it('user list: a header, and --json, read through the running server', () => {
    const result = cli('user', 'list');
    expect(result.status, result.stderr).to.equal(0);
    const [header, admin] = result.stdout.trim().split('\n');
    expect(header.split('\t')).to.deep.equal(['ID', 'USERNAME', 'CONTACT', 'STATE', 'ROLES']);
    expect(admin).to.match(/^1\tadmin\t1\tactive\tadministrator$/);
    const json = cli('user', 'list', '--json');
    expect(json.status, json.stderr).to.equal(0);
    expect(JSON.parse(json.stdout)).to.deep.include({
      id: 1,
      username: 'admin',
      contact: 1,
      state: 'active',
      roles: ['administrator'],
    });
  });

  it('user add --api-client: the key it gets authenticates against the running server', async () => {
    const added = cli('user', 'add', 'robot', '--api-client', '--no-password');
    expect(added.status, added.stderr).to.equal(0);
    const created = cli('key', 'create', '--user', 'robot');
    expect(created.status, created.stderr).to.equal(0);
    expect(created.stdout).not.to.contain('Warning');
    const key = /crm_\S+/.exec(created.stdout)![0];
    const res = await fetch(`${url}/crm/ajax/rest`, {
      method: 'POST',
      headers: { 'X-Crm-Auth': `Bearer ${key}`, 'X-Requested-With': 'XMLHttpRequest' },
      body: new URLSearchParams({ entity: 'Contact', action: 'getcount', json: '{"version":3}' }),
    });
    const body = (await res.json()) as { is_error: number };
    expect(body.is_error, JSON.stringify(body)).to.equal(0);
    robotKey = key;
  });

  it('a change made through the CLI reaches the running server at once (change bus over the socket)', async () => {
    const group = cli('api3', 'CustomGroup', 'create', '{"title":"From the CLI","extends":"Contact"}');
    expect(group.status, group.stderr).to.equal(0);
    const field = cli(
      'api3',
      'CustomField',
      'create',
      '{"custom_group_id":1,"label":"Badge","data_type":"String","html_type":"Text"}',
    );
    expect(field.status, field.stderr).to.equal(0);
    const fieldId = Number((JSON.parse(field.stdout) as { id: number }).id);
    // The CLI ran synchronously: let this process see the server close the idle keep-alive socket first.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await fetch(`${url}/crm/ajax/rest`, {
      method: 'POST',
      headers: { 'X-Crm-Auth': `Bearer ${robotKey}`, 'X-Requested-With': 'XMLHttpRequest' },
      body: new URLSearchParams({ entity: 'Contact', action: 'getfields', json: '{"action":"get"}' }),
    });
    const body = (await res.json()) as { values: Record<string, unknown> };
    expect(body.values, JSON.stringify(body).slice(0, 300)).to.have.property(`custom_${fieldId}`);
  });

  it('key create warns when the user cannot authenticate with the key', () => {
    expect(cli('user', 'add', 'plain', '--no-password').status).to.equal(0);
    const r = cli('key', 'create', '--user', 'plain');
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain("Warning: user plain lacks 'authenticate with api key'");
  });

  it('without the socket, one clear line names the process holding the data folder', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'crm-locked-'));
    const held = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      // A lock held by a live process that shares no socket (e.g. a server from before this change).
      mkdirSync(path.join(other, 'pgdata'));
      writeFileSync(path.join(other, 'pgdata.lock'), String(held.pid));
      const r = run(['user', 'list'], { CRM_DATA_DIR: other });
      expect(r.status).to.equal(1);
      expect(r.stderr.trim().split('\n')).to.have.length(1);
      expect(r.stderr).to.contain(`is in use by process ${held.pid}`);
    } finally {
      held.kill();
    }
  });
});
