/**
 * The migration generator (crm migrate:make): from a fixture plugin's metadata it writes a first migration,
 * then, after the metadata changes, one with only the difference; both build on PGlite and PostgreSQL
 * exactly the schema the snapshot says, and the second reverts cleanly.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { BUILTIN_PLUGINS_DIR, discoverPlugins } from '../../kernel';
import { bootTestKernel, type TestKernel } from '../../host/testing';
import {
  applySchemaSteps,
  comparableSnapshot,
  diffSchemas,
  introspectSchema,
  revertSchemaSteps,
  type SchemaSnapshot,
  type SchemaStep,
} from '../../plugins/entity-core';
import { makeMigrations, snapshotFile } from '../../cli/migrations';

const MANIFEST = JSON.stringify({
  name: 'schema-fixture',
  version: '1.0.0',
  kernel: '^1.0.0',
  kind: 'entity',
  description: 'A fixture entity for the migration generator',
  dependencies: ['entity-contact'],
  provides: { entities: ['Thing'] },
});

/** Version 1 and 2 of the fixture entity; the second changes every kind of thing a migration can. */
const THING_V1 = `export default {
  name: 'Thing',
  table: 'crm_thing',
  fields: [
    { name: 'id', type: 'Int', title: 'ID', required: true },
    { name: 'contact_id', type: 'Int', title: 'Contact', fk: 'Contact', onDelete: 'cascade' },
    { name: 'name', type: 'String', title: 'Name', maxlength: 64, required: true, default: 'unnamed' },
    { name: 'amount', type: 'Money', title: 'Amount' },
    { name: 'data', type: 'Json', title: 'Data' },
    { name: 'kind', type: 'String', title: 'Kind', maxlength: 16 },
    { name: 'entity_table', type: 'String', title: 'Entity table', maxlength: 64 },
    { name: 'entity_id', type: 'Int', title: 'Entity ID', dynamicFk: { tableField: 'entity_table' } },
    { name: 'label', type: 'String', title: 'Label', labelOf: 'kind' },
  ],
  indexes: [
    { name: 'lower_name', fields: ['lower(name)'], opclass: 'text_pattern_ops', include: ['name'] },
    { name: 'entity', fields: ['entity_table', 'entity_id'] },
  ],
};
`;
const THING_V2 = `export default {
  name: 'Thing',
  table: 'crm_thing',
  fields: [
    { name: 'id', type: 'Int', title: 'ID', required: true },
    { name: 'contact_id', type: 'Int', title: 'Contact', fk: 'Contact', onDelete: 'restrict' },
    { name: 'name', type: 'String', title: 'Name', maxlength: 128 },
    { name: 'amount', type: 'Money', title: 'Amount', precision: [12, 4] },
    { name: 'data', type: 'Json', title: 'Data' },
    { name: 'entity_table', type: 'String', title: 'Entity table', maxlength: 64 },
    { name: 'entity_id', type: 'Int', title: 'Entity ID', dynamicFk: { tableField: 'entity_table' } },
    { name: 'note', type: 'Text', title: 'Note', required: true, default: 'none' },
    { name: 'seen', type: 'Timestamp', title: 'Seen', default: { sql: 'now' } },
  ],
  indexes: [
    { name: 'entity', fields: ['entity_table', 'entity_id'] },
    { name: 'contact_name', fields: ['contact_id', 'name'], unique: true, where: 'contact_id is not null' },
  ],
};
`;

function fixture(root: string, thing: string): string {
  const dir = path.join(root, 'schema-fixture');
  mkdirSync(path.join(dir, 'entities'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }');
  writeFileSync(path.join(dir, 'manifest.json'), MANIFEST);
  writeFileSync(path.join(dir, 'entities', 'Thing.ts'), thing);
  return dir;
}

const plugins = (root: string) => discoverPlugins([BUILTIN_PLUGINS_DIR, root]).found;
const readSnapshot = (dir: string) =>
  JSON.parse(readFileSync(snapshotFile(path.join(dir, 'migrations')), 'utf8')) as SchemaSnapshot;

describe('crm migrate:make', function () {
  this.timeout(120000);
  let first: string;
  let second: string;
  let testKernel: TestKernel;

  before(async () => {
    first = mkdtempSync(path.join(tmpdir(), 'crm-migrate-1-'));
    fixture(first, THING_V1);
    expect((await makeMigrations(plugins(first), 'Add things!')).map((w) => [w.plugin, w.steps])).to.deep.equal([
      ['schema-fixture', 4],
    ]);
    // The second version starts from the first one's checked-in migrations.
    second = mkdtempSync(path.join(tmpdir(), 'crm-migrate-2-'));
    cpSync(first, second, { recursive: true });
    fixture(second, THING_V2);
    testKernel = await bootTestKernel({ plugins: ['schema-fixture'], pluginDirs: [first], logLevel: 'warn' });
  });
  after(() => testKernel?.close());

  it('writes nothing when metadata and snapshots agree (the built-in plugins)', async () => {
    expect(await makeMigrations(discoverPlugins([BUILTIN_PLUGINS_DIR]).found, 'noop')).to.deep.equal([]);
  });

  it('writes the first migration: table, expression/covering index, FK; no column for computed fields', () => {
    const snapshot = readSnapshot(path.join(first, 'schema-fixture'));
    const table = snapshot.tables.crm_thing;
    expect(table.columns.map((c) => `${c.name} ${c.type}`)).to.deep.equal([
      'id serial',
      'contact_id integer',
      'name varchar(64)',
      'amount numeric(20,2)',
      'data jsonb',
      'kind varchar(16)',
      'entity_table varchar(64)',
      'entity_id integer',
    ]);
    expect(table.columns[2]).to.deep.equal({ name: 'name', type: 'varchar(64)', notNull: true, default: "'unnamed'" });
    expect(table.foreignKeys).to.deep.equal([
      {
        name: 'crm_thing_contact_id_foreign',
        column: 'contact_id',
        references: { table: 'crm_contact', column: 'id' },
        onDelete: 'cascade',
      },
    ]);
    const source = readFileSync(path.join(first, 'schema-fixture', 'migrations', '001_add_things.ts'), 'utf8');
    expect(source).to.contain('applySchemaSteps(knex, steps)').and.not.contain('crm_thing');
  });

  it('writes its files formatted as Prettier formats them, so a generated migration passes the lint as written', async () => {
    const prettier = await import('prettier');
    const dir = path.join(first, 'schema-fixture', 'migrations');
    const files = readdirSync(dir).map((name) => path.join(dir, name));
    expect(files.map((f) => path.basename(f)).sort()).to.deep.equal([
      '001_add_things.steps.json',
      '001_add_things.ts',
      'schema.json',
    ]);
    for (const file of files) {
      const options = { ...(await prettier.resolveConfig(file)), filepath: file };
      expect(await prettier.check(readFileSync(file, 'utf8'), options), file).to.equal(true);
    }
  });

  it('the database the first migration built matches its snapshot', async () => {
    const actual = await introspectSchema(testKernel.kernel.db, ['crm_thing']);
    expect(comparableSnapshot(actual)).to.deep.equal(
      comparableSnapshot(readSnapshot(path.join(first, 'schema-fixture'))),
    );
  });

  it('writes the difference as the next migration, which applies and reverts on the database', async () => {
    const written = await makeMigrations(plugins(second), 'rework things');
    expect(written.map((w) => path.basename(w.files[1]))).to.deep.equal(['002_rework_things.ts']);
    const file = path.join(second, 'schema-fixture', 'migrations', '002_rework_things.ts');
    const { steps } = (await import(pathToFileURL(file).href)) as { steps: SchemaStep[] };
    const ops = steps.map((s) => `${s.op} ${'column' in s ? s.column.name : 'index' in s ? s.index.name : ''}`.trim());
    expect(ops).to.have.members([
      'dropForeignKey',
      'dropIndex crm_thing_lower_name',
      'alterColumn name',
      'alterColumn amount',
      'addColumn note',
      'addColumn seen',
      'dropColumn kind',
      'createIndex crm_thing_contact_name',
      'addForeignKey',
    ]);
    const before = readSnapshot(path.join(first, 'schema-fixture'));
    const after = readSnapshot(path.join(second, 'schema-fixture'));
    expect(diffSchemas(before, after)).to.deep.equal(steps);

    await testKernel.kernel.db('crm_thing').insert({ name: 'kept', amount: '12.34' });
    await applySchemaSteps(testKernel.kernel.db, steps);
    expect(comparableSnapshot(await introspectSchema(testKernel.kernel.db, ['crm_thing']))).to.deep.equal(
      comparableSnapshot(after),
    );
    const [row] = (await testKernel.kernel.db('crm_thing').select('name', 'amount', 'note')) as Array<
      Record<string, unknown>
    >;
    expect(row).to.deep.equal({ name: 'kept', amount: '12.3400', note: 'none' });

    await revertSchemaSteps(testKernel.kernel.db, steps);
    expect(comparableSnapshot(await introspectSchema(testKernel.kernel.db, ['crm_thing']))).to.deep.equal(
      comparableSnapshot(before),
    );
  });

  it('refuses a foreign key to an entity no enabled plugin declares', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crm-migrate-3-'));
    fixture(root, THING_V1.replace("fk: 'Contact'", "fk: 'Nowhere'"));
    const err = await makeMigrations(plugins(root), 'x').catch((e: Error) => e);
    expect(String(err)).to.contain('Nowhere');
  });

  it('runs as `crm migrate:make <name>` over the configured plugin paths, then has nothing more to write', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'crm-migrate-cli-'));
    fixture(root, THING_V1);
    const config = path.join(root, 'crm.config.json');
    writeFileSync(config, JSON.stringify({ pluginPaths: [root], enable: ['schema-fixture'] }));
    const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const crm = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(repo, 'bin/crm.mjs'), 'migrate:make', ...args], {
        cwd: repo,
        env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: config },
        encoding: 'utf8',
        timeout: 60000,
      });
    const first = crm('add things');
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout).to.contain('schema-fixture: 4 step(s)');
    expect(existsSync(path.join(root, 'schema-fixture', 'migrations', '001_add_things.steps.json'))).to.equal(true);
    const again = crm('again');
    expect(again.status, again.stderr).to.equal(0);
    expect(again.stdout).to.contain('nothing to write');
  });
});
