/** crm import / crm export as a deployer runs them: a real process on a real data folder (or PostgreSQL schema). */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropSchema } from '../../../host/testing';
import { CRM_BIN, ROOT, runCrm } from '../../support/cli';

/** The command lines (arguments joined by spaces) of the running processes that name `needle`, by pid. */
function processesNaming(needle: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(needle)) found.set(Number(pid), cmdline);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe('import-export: the crm process', function () {
  this.timeout(180000);
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-import-cli-'));
  const env: Record<string, string> = process.env.DATABASE_URL
    ? { DATABASE_URL: process.env.DATABASE_URL, CRM_DB_SCHEMA: `import_cli_${process.pid}` }
    : { CRM_DATA_DIR: path.join(dir, 'data') };
  const crm = (...args: string[]) => runCrm(args, { ...env, LOG_LEVEL: 'warn' });
  // The processes' schema (and the job queue's beside it) goes with the test, not into the next run's database.
  after(() => dropSchema(process.env.DATABASE_URL, env.CRM_DB_SCHEMA));

  it('imports a file (progress on stderr, the summary on stdout), then exports it as CSV on stdout', () => {
    const migrated = crm('migrate');
    expect(migrated.status, migrated.stderr).to.equal(0);
    const file = path.join(dir, 'people.csv');
    writeFileSync(
      file,
      'First Name,Last Name,E-mail,Job Title\nAnn,Ask,ann@example.org,"=HYPERLINK(""x"")"\nBo,Bell,bo@example.org,\n',
    );
    const imported = crm('import', file);
    expect(imported.status, imported.stderr).to.equal(0);
    expect(JSON.parse(imported.stdout)).to.include({ rows_read: 2, created: 2, rejected: 0 });
    expect(imported.stderr).to.match(/import: 2\/2 rows \(100%\), \d+ rows\/s/);
    const exported = crm(
      'export',
      '--select',
      'first_name,last_name,job_title',
      '--where',
      '[["last_name","IN",["Ask","Bell"]]]',
    );
    expect(exported.status, exported.stderr).to.equal(0);
    expect(exported.stdout).to.equal('first_name,last_name,job_title\nAnn,Ask,"\'=HYPERLINK(""x"")"\nBo,Bell,\n');
  });

  it('exits non-zero with one clear line for a bad file or a resume with nothing to resume', () => {
    const file = path.join(dir, 'bad.csv');
    writeFileSync(file, Buffer.from('first_name\nJos\xe9\n', 'latin1'));
    const bad = crm('import', file);
    expect(bad.status).to.not.equal(0);
    expect(bad.stderr).to.match(/bad\.csv is not valid UTF-8/);
    expect(bad.stderr).to.not.match(/\n\s+at /);
    const resume = crm('import', path.join(dir, 'people.csv'), '--resume');
    expect(resume.status).to.not.equal(0);
    expect(resume.stderr).to.match(/No unfinished import of .*people\.csv to resume/);
  });

  it('on PostgreSQL imports in a child process with a larger young generation; a SIGTERM to crm ends the import', async () => {
    const file = path.join(dir, 'many.csv');
    const rows = Array.from({ length: 100000 }, (_, i) => `P${i},Q${i},p${i}@signal.example.org`);
    writeFileSync(file, `first_name,last_name,email\n${rows.join('\n')}\n`);
    const proc = spawn(process.execPath, [CRM_BIN, 'import', file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '', ...env, LOG_LEVEL: 'warn' },
    });
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      proc.on('exit', (code, signal) => resolve(signal ?? code)),
    );
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      proc.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/import: \d+\/100000 rows/.test(stderr)) resolve();
      });
      proc.on('exit', () => reject(new Error(`crm import ended before its first progress line: ${stderr}`)));
    });
    const importers = processesNaming(file);
    const children = [...importers].filter(([pid]) => pid !== proc.pid);
    if (process.env.DATABASE_URL) {
      expect(children, [...importers.values()].join('\n')).to.have.length(1);
      expect(children[0][1]).to.include('--max-semi-space-size=48');
    } else expect(children, 'the embedded database imports in the crm process itself').to.have.length(0);
    proc.kill('SIGTERM');
    expect(await exited).to.equal('SIGTERM');
    for (let wait = 0; wait < 20 && processesNaming(file).size; wait++) await new Promise((r) => setTimeout(r, 100));
    expect([...processesNaming(file).values()], 'no import process is left running').to.deep.equal([]);
  });
});
