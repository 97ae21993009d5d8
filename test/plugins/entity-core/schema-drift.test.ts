/**
 * Metadata is the one source of a table (docs/adr/0009): these fail when a plugin's entity metadata, its
 * checked-in snapshot (migrations/schema.json), its migrations and the database they build disagree.
 * Runs on whichever engine the suite uses (PGlite, or PostgreSQL with DATABASE_URL).
 */
import { expect } from 'chai';
import { BUILTIN_PLUGINS_DIR, discoverPlugins } from '../../../kernel';
import { bootTestKernel, type TestKernel } from '../../../host/testing';
import {
  comparableSnapshot,
  introspectSchema,
  normalizeSnapshot,
  type SchemaSnapshot,
} from '../../../plugins/entity-core';
import { migratedSnapshot, pluginSchemas, type PluginSchema } from '../../../cli/migrations';

describe('schema from metadata: drift', function () {
  this.timeout(120000);
  let schemas: PluginSchema[];

  before(async () => {
    schemas = await pluginSchemas(discoverPlugins([BUILTIN_PLUGINS_DIR]).found);
  });

  it('covers every entity plugin', () => {
    expect(schemas.map((s) => s.plugin.name)).to.include.members(['entity-option', 'entity-contact', 'oauth-client']);
  });

  it('each plugin’s metadata equals its checked-in snapshot (else run `npm run migrations -- <name>`)', () => {
    for (const s of schemas)
      expect(normalizeSnapshot(s.declared), `${s.plugin.name}: metadata vs migrations/schema.json`).to.deep.equal(
        normalizeSnapshot(s.snapshot),
      );
  });

  it('each snapshot is what the plugin’s migrations produce', async () => {
    for (const s of schemas)
      expect(
        normalizeSnapshot(await migratedSnapshot(s.migrationsDir)),
        `${s.plugin.name}: migration steps vs schema.json`,
      ).to.deep.equal(normalizeSnapshot(s.snapshot));
  });

  describe('the database the migrations build', () => {
    let testKernel: TestKernel;
    before(async () => {
      testKernel = await bootTestKernel({ logLevel: 'warn' });
    });
    after(() => testKernel?.close());

    it('holds exactly the snapshots’ columns, types, defaults, nullability, indexes and foreign keys', async () => {
      const booted = new Set(testKernel.kernel.plugins.map((p) => p.name));
      const expected: SchemaSnapshot = {
        tables: Object.assign({}, ...schemas.filter((s) => booted.has(s.plugin.name)).map((s) => s.snapshot.tables)),
      };
      const tables = Object.keys(expected.tables);
      const actual = await introspectSchema(testKernel.kernel.db, tables);
      // A reference into a plugin's own non-entity table (a session token's crm_session) is written by hand in
      // that plugin's migration; the snapshots own the references between entity tables.
      for (const table of Object.values(actual.tables))
        table.foreignKeys = table.foreignKeys.filter((fk) => tables.includes(fk.references.table));
      expect(comparableSnapshot(actual)).to.deep.equal(comparableSnapshot(expected));
    });

    it('keeps the indexes the benchmark relies on', async () => {
      const { rows } = (await testKernel.kernel.db.raw(
        `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'crm_contact'`,
      )) as { rows: Array<{ indexname: string; indexdef: string }> };
      const def = (name: string) => rows.find((r) => r.indexname === name)?.indexdef ?? `(no index ${name})`;
      expect(def('crm_contact_lower_last_name')).to.match(
        /lower\(\(?last_name\)?(::text)?\) text_pattern_ops\) INCLUDE \(last_name, is_deleted\)/,
      );
      expect(def('crm_contact_deleted_sort_name')).to.contain('(is_deleted, sort_name, id)');
    });
  });
});
