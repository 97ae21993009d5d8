/** The migrated cluster a fresh embedded data folder starts from (host/template.ts, built by `npm ci`). */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { finishConfig } from '../../host';
import { copyMigratedTemplate, migratedTemplateKey, saveMigratedTemplate } from '../../host/template';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/plugins');

describe('host/template: the migrated cluster a fresh data folder starts from', () => {
  // A plugin folder of its own (pluginPaths), so the test can edit a migration and no real plan's template is touched.
  const root = mkdtempSync(path.join(tmpdir(), 'crm-template-plugins-'));
  cpSync(path.join(fixtures, 'writer'), path.join(root, 'writer'), { recursive: true });
  const migration = path.join(root, 'writer', 'migrations', '001_note.ts');
  const config = finishConfig({ pluginPaths: [root], plugins: ['writer'], log: { level: 'silent' } });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('keys the plan: the enabled plugins, in order, and their migration files', () => {
    const key = migratedTemplateKey(config);
    expect(key).to.match(/^[0-9a-f]{20}$/);
    expect(migratedTemplateKey(config)).to.equal(key);
    expect(migratedTemplateKey(finishConfig({ plugins: ['entity-core'] }))).not.to.equal(key);
    // An edited (or added) migration is another plan: the template of the old one must not be used.
    expect(readdirSync(path.dirname(migration))).to.include('001_note.ts');
    writeFileSync(migration, '// edited\n', { flag: 'a' });
    expect(migratedTemplateKey(config)).not.to.equal(key);
    // A plan that does not resolve has no key: the boot reports the problem, not the template.
    expect(migratedTemplateKey(finishConfig({ plugins: ['no-such-plugin'] }))).to.equal(undefined);
  });

  it('copies the template kept for the plan into an empty folder, and only for that plan', () => {
    const cluster = mkdtempSync(path.join(tmpdir(), 'crm-template-cluster-'));
    writeFileSync(path.join(cluster, 'PG_VERSION'), '17\n');
    mkdirSync(path.join(cluster, 'base'));
    writeFileSync(path.join(cluster, 'base', 'relation'), 'rows');
    const saved = saveMigratedTemplate(config, cluster);
    try {
      expect(saved && existsSync(path.join(saved, 'PG_VERSION'))).to.equal(true);
      const fresh = mkdtempSync(path.join(tmpdir(), 'crm-template-fresh-'));
      expect(copyMigratedTemplate(config, fresh)).to.equal(true);
      expect(readdirSync(fresh).sort()).to.deep.equal(['PG_VERSION', 'base']);
      expect(existsSync(path.join(fresh, 'base', 'relation'))).to.equal(true);
      const other = mkdtempSync(path.join(tmpdir(), 'crm-template-other-'));
      expect(copyMigratedTemplate(finishConfig({ plugins: ['entity-core'], pluginPaths: [root] }), other)).to.equal(
        false,
      );
      expect(readdirSync(other)).to.deep.equal([]);
      for (const dir of [fresh, other]) rmSync(dir, { recursive: true, force: true });
    } finally {
      if (saved) rmSync(saved, { recursive: true, force: true });
      rmSync(cluster, { recursive: true, force: true });
    }
  });
});
