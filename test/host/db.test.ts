import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type KernelError } from '../../kernel';
import { closeDb, createDb, createKernel, finishConfig } from '../../host';
import { createLogger } from '../../host';
import { principalWith } from '../../host/testing';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins');

describe('kernel/db on an embedded data folder', function () {
  this.timeout(60000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-data-'));
  const config = finishConfig({ plugins: ['writer'], dataDir, log: { level: 'silent' } });
  const boot = () => createKernel({ config, log: createLogger({ level: 'silent' }), pluginDirs: [fixtures] });
  const who = principalWith([]);

  it('keeps data across restarts and refuses a second process on the same folder', async () => {
    const first = await boot();
    await first.call({ entity: 'Note', action: 'add', params: { text: 'persisted' }, principal: who });
    // A second opener (another process would do the same) is refused while the first holds the folder.
    let refused: KernelError | undefined;
    try {
      createDb(config);
    } catch (err) {
      refused = err as KernelError;
    }
    expect(refused?.code).to.equal('E_DATABASE');
    expect(refused?.message).to.contain('in use by process');
    await first.close();

    const second = await boot();
    expect(await second.call({ entity: 'Note', action: 'count', params: {}, principal: who })).to.equal(1);
    await second.close();
  });

  it('a fresh data folder starts from the cluster template npm ci caches (no initdb) and keeps its data', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const built = spawnSync(process.execPath, [path.join(root, 'bin/pglite-template.mjs')], { encoding: 'utf8' });
    expect(built.stdout).to.match(/PGlite cluster template (present|built)/);
    const fresh = finishConfig({ dataDir: mkdtempSync(path.join(tmpdir(), 'crm-fresh-')) });
    const db = createDb(fresh);
    await db.raw('create table kept (v text)');
    await db('kept').insert({ v: 'from the template' });
    await closeDb(db);
    const again = createDb(fresh);
    try {
      expect(await again('kept').pluck('v')).to.deep.equal(['from the template']);
      expect(existsSync(path.join(path.resolve(fresh.dataDir), 'pgdata', 'PG_VERSION'))).to.equal(true);
    } finally {
      await closeDb(again);
    }
  });
});
