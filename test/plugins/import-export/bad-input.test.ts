/** crm import's per-file refusals (nothing written), and resume after a batch that failed midway. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { failure } from '../../../host/testing';
import { CLI_PRINCIPAL, type EntityRegistry, type EntityService } from '../../../plugins/entity-core';
import { runImport } from '../../../plugins/import-export/importer';
import { bootImportExport, type Harness } from './harness';

describe('import-export: bad input and resume', function () {
  this.timeout(120000);
  let crm: Harness;
  let db: Knex;
  const count = async () => Number((await db('crm_contact').count({ n: '*' }))[0].n);
  const refused = (file: string, options: Record<string, unknown> = {}) => failure(crm.cli('import', [file], options));
  before(async () => {
    crm = await bootImportExport();
    db = crm.t.kernel.db;
  });
  after(() => crm.t.close());

  it('refuses a file that is not UTF-8 before writing anything, and imports it with --encoding', async () => {
    const before = await count();
    const latin1 = Buffer.concat([
      Buffer.from('first_name,last_name\n'),
      ...Array.from({ length: 30 }, () => Buffer.from('Zoe,Ok\n')),
      Buffer.from('Ren\xe9,Dupr\xe9\n', 'latin1'),
    ]);
    const path = crm.file('latin1.csv', latin1);
    const err = await refused(path);
    expect(err.code).to.equal('E_INVALID_PARAMS');
    expect(err.message).to.match(/latin1\.csv is not valid UTF-8 .*--encoding/);
    expect(await count()).to.equal(before);
    const summary = JSON.parse(await crm.cli('import', [path], { encoding: 'latin1' }));
    expect(summary).to.include({ created: 31 });
    const rene = await db('crm_contact').where({ first_name: 'René' }).first('last_name');
    expect(rene.last_name).to.equal('Dupré');
  });

  it('refuses a record over the size limit (a 10 MB field) and broken quoting, before writing anything', async () => {
    const before = await count();
    const huge = crm.file('huge.csv', `first_name,last_name\nA,B\nC,${'x'.repeat(10 * 1024 * 1024)}\n`);
    expect((await refused(huge)).message).to.match(/huge\.csv line 3: a record is longer than 1048576 bytes/);
    const quotes = crm.file('quotes.csv', 'first_name,last_name\nA,B\n"C,D\n');
    expect((await refused(quotes)).message).to.match(/quotes\.csv line \d+: not valid CSV/);
    expect(await count()).to.equal(before);
  });

  it('refuses a mapping to an unknown field (or a missing column) before writing anything', async () => {
    const before = await count();
    const path = crm.file('mapped.csv', 'a,b\nX,Y\n');
    const map = crm.file('bad-map.json', JSON.stringify({ a: 'first_name', b: 'favourite_planet' }));
    expect((await refused(path, { map })).message).to.equal('The mapping names unknown fields: b → favourite_planet');
    const missing = crm.file('missing-map.json', JSON.stringify({ a: 'first_name', c: 'last_name' }));
    expect((await refused(path, { map: missing })).message).to.equal('The mapping names columns the file lacks: c');
    const twice = crm.file('twice-map.json', JSON.stringify({ a: 'first_name', b: 'first_name' }));
    expect((await refused(path, { map: twice })).message).to.equal('Columns a and b map to the same field');
    expect((await refused(path, { onDuplicate: 'merge' })).message).to.match(/--on-duplicate must be one of/);
    expect(await count()).to.equal(before);
  });

  it('a batch that fails midway is absent, earlier ones present, and --resume finishes the import', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `Res${i},Ume,res${i}@example.org`).join('\n');
    const path = crm.file('resume.csv', `first_name,last_name,email\n${rows}\nBad,Row,nope\n`);
    const errors = crm.file('resume-errors.csv');
    const deps = {
      db,
      service: crm.t.kernel.container.resolve('entityService') as EntityService,
      registry: crm.t.kernel.container.resolve('entities') as EntityRegistry,
      principal: CLI_PRINCIPAL,
    };
    const request = {
      input: { path },
      rule: 'skip' as const,
      on: 'email' as const,
      batchSize: 4,
      csv: { maxRecordBytes: 1 << 20 },
      errors,
    };
    const crash = await failure(
      runImport(deps, {
        ...request,
        beforeCommit: (batch) => {
          if (batch === 2) throw new Error('simulated crash in batch 2');
        },
      }),
    );
    expect(crash.message).to.equal('simulated crash in batch 2');
    // By name: two batches in flight may interleave their contacts' ids.
    const names = async () =>
      (await db('crm_contact').where({ last_name: 'Ume' }).orderBy('first_name').pluck('first_name')) as string[];
    expect(await names()).to.deep.equal(['Res0', 'Res1', 'Res2', 'Res3']);
    const job = await db('crm_import_job').where({ file_name: path }).first();
    expect(job).to.include({ status: 'failed', last_batch: 1, created: 4, error: 'simulated crash in batch 2' });
    const summary = JSON.parse(await crm.cli('import', [path], { resume: true, errors }));
    expect(summary).to.include({ job: job.id, resumed_after_batch: 1, rows_read: 11, created: 10, rejected: 1 });
    expect(await names()).to.deep.equal(Array.from({ length: 10 }, (_, i) => `Res${i}`));
    expect(readFileSync(errors, 'utf8')).to.match(
      /^row,line,reason,first_name,last_name,email\n11,12,"email: ""nope"" is not an email address",Bad,Row,nope\n$/,
    );
    expect((await failure(crm.cli('import', [path], { resume: true }))).message).to.match(/No unfinished import/);
  });

  it('commits the batches one after the other, in file order, while the next batch is read (and written)', async () => {
    const rows = Array.from({ length: 9 }, (_, i) => `Ord${i},Erly,ord${i}@example.org`).join('\n');
    const path = crm.file('order.csv', `first_name,last_name,email\n${rows}\n`);
    const events: string[] = [];
    const summary = await runImport(
      {
        db,
        service: crm.t.kernel.container.resolve('entityService') as EntityService,
        registry: crm.t.kernel.container.resolve('entities') as EntityRegistry,
        principal: CLI_PRINCIPAL,
      },
      {
        input: { path },
        rule: 'skip',
        on: 'email',
        batchSize: 2,
        csv: { maxRecordBytes: 1 << 20 },
        beforeCommit: async (batch) => {
          events.push(`start ${batch}`);
          await new Promise((resolve) => setTimeout(resolve, 20)); // a slow batch: the reader runs ahead meanwhile
          events.push(`end ${batch}`);
        },
      },
    );
    expect(summary).to.include({ rows_read: 9, created: 9 });
    expect(events).to.deep.equal([1, 2, 3, 4, 5].flatMap((b) => [`start ${b}`, `end ${b}`]));
    // Every row once (ids follow the file within a batch; two batches in flight may interleave theirs).
    const names = await db('crm_contact').where({ last_name: 'Erly' }).orderBy('first_name').pluck('first_name');
    expect(names).to.deep.equal(Array.from({ length: 9 }, (_, i) => `Ord${i}`));
  });
});
