/**
 * Two batches in flight and a lifecycle tap that writes one shared row at every save: the later batch can take the
 * row's lock first and then wait for the earlier one's commit, while the earlier one waits for the lock.
 */
import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootImportExport, type Harness } from './harness';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/plugins');

describe('import-export: batches in flight contending for a lock', function () {
  this.timeout(120000);
  let crm: Harness;
  before(async () => {
    crm = await bootImportExport({ plugins: ['contact-counter'], pluginDirs: [fixtures] });
  });
  after(() => crm.t.close());

  it('the later batch yields and is written again after the earlier one: every row in, each counted once', async () => {
    const rows = ['Slow,One', 'Slow,Two', 'Fast,Three', 'Fast,Four', 'Fast,Five', 'Fast,Six', 'Fast,Seven'];
    const file = crm.file('contended.csv', `first_name,last_name\n${rows.join('\n')}\n`);
    // Two rows a batch: the first batch's tap waits, the second's takes the shared row first (PostgreSQL; the
    // embedded database writes one batch at a time, so there the rows simply go in).
    const summary = JSON.parse(await crm.cli('import', [file], { batchSize: '2' }));
    expect(summary).to.include({ rows_read: 7, created: 7, rejected: 0 });
    // The summary tells the deployer the batches met (and that the rest went one at a time).
    if (process.env.DATABASE_URL) expect(summary).to.include({ lock_contention: true });
    else expect(summary).not.to.have.property('lock_contention');
    const db = crm.t.kernel.db;
    const [counter] = await db('fixture_contact_counter').where('id', 1);
    expect(counter.n).to.equal(7);
    const stored = await db('crm_contact').whereIn('last_name', [
      'One',
      'Two',
      'Three',
      'Four',
      'Five',
      'Six',
      'Seven',
    ]);
    expect(stored).to.have.length(7);
    const [job] = await db('crm_import_job').where('id', summary.job);
    expect(job).to.include({ last_batch: 4, created: 7 });
  });
});
