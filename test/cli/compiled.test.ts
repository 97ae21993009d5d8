/**
 * The compiled tree (bin/build.mjs, what `npm ci` builds into dist/): `crm` runs it without tsx, the plugin
 * loader finds the compiled plugin files and their assets in it, and a stale tree is never run silently.
 * Built into a folder of its own (CRM_DIST), so a developer's dist/ is left alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { CRM_BIN, ROOT } from '../support/cli';

// Inside the project, so the compiled files find node_modules as dist/ does.
const out = path.join(ROOT, 'test-artifacts', `dist-${process.pid}`);
const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const crm = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CRM_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '', CRM_DIST: out, CRM_RUNTIME: 'dist', ...env },
    encoding: 'utf8',
    timeout: 60000,
  });

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('compiled JavaScript (bin/build.mjs, bin/dist.mjs)', function () {
  this.timeout(90000);

  before(async () => {
    const script = pathToFileURL(path.join(ROOT, 'bin/build.mjs')).href;
    const { build } = (await import(script)) as { build(dir: string): Promise<{ files: number }> };
    const done = await build(out);
    expect(done.files).to.be.greaterThan(100);
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  it('compiles every .ts to .js beside copies of the manifests, schemas, assets and command list', () => {
    const files = filesUnder(out);
    expect(files.filter((f) => f.endsWith('.ts'))).to.deep.equal([]);
    for (const file of [
      'cli/main.js',
      'cli/commands.json',
      'kernel/index.js',
      'kernel/manifest.schema.json',
      'plugins/entity-core/register.js',
      'plugins/entity-contact/manifest.json',
      'plugins/entity-contact/migrations/001_contact_tables.js',
      'plugins/web-pages/assets/style.css',
    ])
      expect(files, file).to.include(file);
    expect(files.some((f) => /^plugins\/[\w-]+\/entities\/\w+\.js$/.test(f))).to.equal(true);
    expect(files.some((f) => /^providers\/[\w.-]+\.json$/.test(f))).to.equal(true);
    // Relative imports name the files Node loads; JSON is inlined (Node would need import attributes).
    const register = readFileSync(path.join(out, 'plugins/entity-core/register.js'), 'utf8');
    expect(register).to.match(/from "\.\.\/\.\.\/kernel\/index\.js"/);
    expect(readFileSync(path.join(out, 'kernel/loader.js'), 'utf8')).not.to.match(/from "[^"]+\.json"/);
    const marker = JSON.parse(readFileSync(path.join(out, 'package.json'), 'utf8'));
    expect(marker).to.include({ type: 'module', version });
    expect(path.resolve(out, marker.crmSourceRoot)).to.equal(ROOT);
  });

  it('runs --version and `config check` from the compiled tree', () => {
    const ver = crm(['--version']);
    expect(ver.status, ver.stderr).to.equal(0);
    expect(ver.stdout.trim()).to.equal(version);
    const check = crm(['config', 'check']);
    expect(check.status, check.stderr).to.equal(0);
    expect(check.stdout).to.contain('Configuration OK');
    expect(check.stderr).to.equal('');
  });

  it('serves a fresh data folder from the compiled tree: /healthz, a page and a plugin asset', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-compiled-'));
    const child = spawn(process.execPath, [CRM_BIN, 'serve', '--port', '0'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...{ DATABASE_URL: '', CRM_CONFIG: '', CRM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        ...{ CRM_DIST: out, CRM_RUNTIME: 'dist' },
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /Listening on (http:\/\/\S+)/.exec(stdout);
          if (m) resolve(m[1]);
          if (m || child.exitCode !== null) clearInterval(timer);
          if (!m && child.exitCode !== null) reject(new Error(`serve exited ${child.exitCode}: ${stderr}`));
        }, 50);
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).to.equal(200);
      const home = await fetch(`${url}/`);
      expect(home.status).to.equal(200);
      expect(await home.text()).to.contain(version);
      const css = await fetch(`${url}/crm/assets/web/style.css`);
      expect(css.status).to.equal(200);
      expect(await css.text()).to.equal(readFileSync(path.join(ROOT, 'plugins/web-pages/assets/style.css'), 'utf8'));
    } finally {
      child.kill('SIGTERM');
      expect(await exited, stderr).to.equal(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a stale tree is not run silently: one line, then the sources through tsx (or a refusal)', () => {
    const stamp = path.join(out, 'build.json');
    const fresh = readFileSync(stamp, 'utf8');
    try {
      writeFileSync(stamp, JSON.stringify({ ...JSON.parse(fresh), builtAt: 0 }));
      const auto = crm(['config', 'check'], { CRM_RUNTIME: '' });
      expect(auto.status, auto.stderr).to.equal(0);
      expect(auto.stdout).to.contain('Configuration OK');
      const lines = auto.stderr.trim().split('\n');
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/is older than \S+: running the TypeScript sources through tsx/);
      const strict = crm(['config', 'check']);
      expect(strict.status).to.equal(1);
      expect(strict.stderr).to.contain('CRM_RUNTIME=dist but').and.contain('is older than');
    } finally {
      writeFileSync(stamp, fresh);
    }
  });

  it('without a compiled tree the sources run through tsx, as before, without a word', () => {
    const missing = path.join(ROOT, 'test-artifacts', `no-dist-${process.pid}`);
    expect(existsSync(missing)).to.equal(false);
    const r = crm(['config', 'check'], { CRM_DIST: missing, CRM_RUNTIME: '' });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain('Configuration OK');
    expect(r.stderr).to.equal('');
  });
});
