/**
 * Two instances on one PostgreSQL database: an instance started after a schema change brings the log tables in
 * step at start (as after a migration), and an instance hears through the change bus that another turned
 * logging on, so its writes name their contact too.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKernel, createLogger } from '../../../host';
import { bootTestKernel, principalWith, type TestKernel } from '../../../host/testing';
import type { Kernel } from '../../../kernel';

describe('audit-log: log tables and the logging switch across instances (PostgreSQL)', function () {
  this.timeout(90000);
  let first: TestKernel;
  let second: Kernel | undefined;
  let db: Knex;
  const admin = principalWith(['*'], 1);
  const setLogging = (kernel: Kernel, on: boolean) =>
    kernel.call({
      version: 4,
      entity: 'Setting',
      action: 'set',
      params: { values: { logging: on } },
      principal: admin,
    });
  const logColumns = async (table: string) =>
    (
      await db.raw(
        'select column_name from information_schema.columns where table_schema = current_schema() and table_name = ?',
        [table],
      )
    ).rows.map((row: { column_name: string }) => row.column_name);

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    first = await bootTestKernel({ plugins: ['audit-log'], logLevel: 'warn' });
    db = first.kernel.db;
  });
  after(async () => {
    await second?.close();
    await first?.close();
  });

  it('a new instance adds the log columns a table gained before it started (as after migrations)', async () => {
    await setLogging(first.kernel, true);
    await db.raw('alter table crm_phone add column audit_probe_start varchar(16)');
    try {
      second = await createKernel({ config: first.config, log: createLogger({ level: 'silent' }) });
      expect(await logColumns('log_crm_phone')).to.include('audit_probe_start');
    } finally {
      await db.raw('alter table crm_phone drop column audit_probe_start');
    }
  });

  it('an instance hears that logging came on elsewhere: its writes are logged with their contact', async () => {
    await setLogging(first.kernel, false);
    // This instance starts with logging off, so only the change bus can tell it that logging came on.
    await second?.close();
    second = await createKernel({ config: first.config, log: createLogger({ level: 'silent' }) });
    await setLogging(first.kernel, true);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the notification travels after commit
    const made = (await second!.call({
      version: 3,
      entity: 'Contact',
      action: 'create',
      params: { contact_type: 'Individual', first_name: 'Elsewhere' },
      principal: principalWith(['*'], 1),
    })) as { id: number };
    const rows = await db('log_crm_contact').where({ id: made.id });
    expect(rows.map((row) => [row.log_action, row.log_user_id])).to.deep.equal([['Insert', 1]]);
  });
});
