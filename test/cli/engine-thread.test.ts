/**
 * `crm` with `database.embeddedThread`: real processes on one data folder, the engine in a worker thread. Each
 * command must wait for its statements (the thread holds the process open while a call is under way) and then
 * exit (the idle thread does not).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runCrm } from '../support/cli';

describe('crm with the embedded engine in a worker thread', function () {
  this.timeout(120000);
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-thread-'));
  const config = path.join(dir, 'crm.config.json');
  writeFileSync(config, JSON.stringify({ dataDir: path.join(dir, 'var'), database: { embeddedThread: true } }));
  const crm = (...args: string[]) => runCrm(args, { CRM_CONFIG: config });

  it('migrates, writes and reads back across processes, each command exiting when done', () => {
    const migrated = crm('migrate');
    expect(migrated.status, migrated.stderr).to.equal(0);
    const made = crm('api4', 'Contact', 'create', '{"values":{"contact_type":"Individual","first_name":"Threaded"}}');
    expect(made.status, made.stderr).to.equal(0);
    const read = crm('api4', 'Contact', 'get', '{"select":["first_name"],"where":[["first_name","=","Threaded"]]}');
    expect(read.status, read.stderr).to.equal(0);
    expect((JSON.parse(read.stdout) as { values: unknown[] }).values).to.deep.equal([{ first_name: 'Threaded' }]);
    // A statement PostgreSQL refuses (a unique index) is the usual clear error, not a crash of the thread.
    const twin = '{"values":{"contact_type":"Individual","first_name":"Twin","external_identifier":"X-1"}}';
    expect(crm('api4', 'Contact', 'create', twin).status).to.equal(0);
    const again = crm('api4', 'Contact', 'create', twin);
    expect(again.status).to.not.equal(0);
    expect(again.stderr).to.match(/DB Error: already exists/);
    expect(again.stderr).to.not.match(/\n\s+at /);
  });
});
