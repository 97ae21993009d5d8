/** The `crm` command as a deployer runs it: a real process, a real port, a real data folder. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CRM_BIN, ROOT, runCrm } from '../support/cli';

const root = ROOT;
const bin = CRM_BIN;
const run = runCrm;

describe('crm CLI', function () {
  this.timeout(90000);

  it('serve: listens on an embedded database, answers /healthz, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-serve-'));
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '', CRM_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /Listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
    });
    const res = await fetch(`${url}/healthz`);
    expect(res.status).to.equal(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
  });

  it('config check: one clear line and exit 1 for a bad value, no stack trace', () => {
    const r = run(['config', 'check'], { PORT: 'abc' });
    expect(r.status).to.equal(1);
    expect(r.stderr.trim()).to.match(/^crm: Invalid configuration:/);
    expect(r.stderr).to.contain('server.port must be integer').and.not.contain('    at ');
  });

  it('config check: an unknown plugin lists the available ones', () => {
    const r = run(['config', 'check'], { CRM_ENABLE: 'no-such-plugin' });
    expect(r.status).to.equal(1);
    expect(r.stderr)
      .to.contain('Plugin no-such-plugin is enabled but not installed. Available plugins:')
      .and.contain('system');
  });

  it('serve: an unreachable database is one line and exit 1', () => {
    // No waiting for the database to come up (connectRetryMs, tested in test/host/ops.test.ts).
    const r = run(['serve'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', CRM_DB_CONNECT_RETRY_MS: '0' });
    expect(r.status).to.equal(1);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
    expect(r.stderr).to.contain('Database unreachable');
  });

  it('-c <file>: the command is the one after the options, and plugin commands use that configuration', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'crm-config-'));
    const file = path.join(folder, 'crm.config.json');
    const dataDir = path.join(folder, 'data');
    writeFileSync(file, JSON.stringify({ dataDir, log: { level: 'warn' } }));
    const builtin = run(['-c', file, 'plugins']);
    expect(builtin.status, builtin.stderr).to.equal(0);
    expect(builtin.stdout).to.match(/plugins enabled/);
    const fromPlugin = run(['-c', file, 'user', 'list']);
    expect(fromPlugin.status, fromPlugin.stderr).to.equal(0);
    // First-run set-up belongs to `serve`: a CLI command on an empty database creates no administrator.
    expect(fromPlugin.stdout.trim()).to.equal('No users.');
    // Logs go to stderr, never into the answer: here, that a secret key was generated in the data folder.
    expect(fromPlugin.stderr).to.contain('No secret key configured: generated one');
    // The embedded database was opened in the configured data folder, not in ./var.
    expect(existsSync(path.join(dataDir, 'pgdata'))).to.equal(true);
  });

  it('plugins: lists every installed plugin and whether it is enabled', () => {
    const r = run(['plugins', '--json']);
    expect(r.status).to.equal(0);
    const rows = JSON.parse(r.stdout) as Array<{ name: string; enabled: boolean }>;
    expect(rows.find((p) => p.name === 'system')?.enabled).to.equal(true);
  });
});
