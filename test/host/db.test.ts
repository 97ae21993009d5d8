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

for (const embeddedThread of [false, true])
  describe(`kernel/db on an embedded data folder (engine ${embeddedThread ? 'in a worker thread' : 'in the main thread'})`, function () {
    this.timeout(60000);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-data-'));
    const database = { embeddedThread };
    const config = finishConfig({ plugins: ['writer'], dataDir, database, log: { level: 'silent' } });
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
      const fresh = finishConfig({ dataDir: mkdtempSync(path.join(tmpdir(), 'crm-fresh-')), database });
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

    it("a failed statement keeps PostgreSQL's error fields, and a failed transaction leaves nothing", async () => {
      const db = createDb(finishConfig({ dataDir: mkdtempSync(path.join(tmpdir(), 'crm-errors-')), database }));
      try {
        await db.raw('create table uniq (v text constraint uniq_v unique)');
        await db('uniq').insert({ v: 'a' });
        const err = await db('uniq')
          .insert({ v: 'a' })
          .then(
            () => undefined,
            (e: unknown) => e as { code?: string; constraint?: string; message: string },
          );
        expect(err?.code).to.equal('23505');
        expect(err?.constraint).to.equal('uniq_v');
        expect(err?.message).to.contain('duplicate key');
        await db
          .transaction(async (trx) => {
            await trx('uniq').insert({ v: 'b' });
            await trx('uniq').insert({ v: 'b' });
          })
          .catch(() => undefined);
        expect(await db('uniq').orderBy('v').pluck('v')).to.deep.equal(['a']);
      } finally {
        await closeDb(db);
      }
    });
  });
