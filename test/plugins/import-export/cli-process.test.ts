/** crm import / crm export as a deployer runs them: a real process on a real data folder (or PostgreSQL schema). */
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { runCrm } from '../../support/cli';

describe('import-export: the crm process', function () {
  this.timeout(180000);
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-import-cli-'));
  const env: Record<string, string> = process.env.DATABASE_URL
    ? { DATABASE_URL: process.env.DATABASE_URL, CRM_DB_SCHEMA: `import_cli_${process.pid}` }
    : { CRM_DATA_DIR: path.join(dir, 'data') };
  const crm = (...args: string[]) => runCrm(args, { ...env, LOG_LEVEL: 'warn' });
  // The processes' schema (and the job queue's beside it) goes with the test, not into the next run's database.
  after(async () => {
    if (!process.env.DATABASE_URL) return;
    const db = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    try {
      for (const schema of [env.CRM_DB_SCHEMA, `${env.CRM_DB_SCHEMA}_pgboss`])
        await db.raw('drop schema if exists ?? cascade', [schema]);
    } finally {
      await db.destroy();
    }
  });

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
});
