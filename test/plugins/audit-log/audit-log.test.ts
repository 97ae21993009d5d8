/**
 * Detailed logging over HTTP: the `logging` setting makes log tables and triggers; writes through APIv3 and
 * APIv4 are recorded with who, when, before and after; custom fields added meanwhile are logged; the history
 * reads through APIv4 LogEntry and Logging.get; secrets are masked; turning logging off stops recording.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { bootEntityHttp, type EntityHttp, type Headers, type Row } from '../../support/entity-http';

describe('audit-log: detailed logging (System.updatelogtables 4.7.7)', function () {
  this.timeout(90000);
  let crm: EntityHttp;
  let db: Knex;
  let admin: Headers;
  let adminId: number;
  let editor: Headers;
  let editorId: number;
  let ann: number;

  const logTables = async () =>
    (
      (
        await db.raw(
          `select table_name from information_schema.tables where table_schema = current_schema() and table_name like 'log\\_%'`,
        )
      ).rows as Array<{ table_name: string }>
    ).map((row) => row.table_name);
  const logRows = async (table: string, id: number) =>
    (await db(`log_${table}`).where({ id }).orderBy('log_date')) as Row[];
  const history = async (entity: string, id: number) => {
    const answer = await crm.api4(admin, 'LogEntry', 'get', {
      where: [
        ['entity', '=', entity],
        ['entity_id', '=', id],
      ],
    });
    expect(answer.values, JSON.stringify(answer)).to.be.an('array');
    return answer.values as unknown as Row[];
  };

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['audit-log', 'custom-data', 'settings', 'oauth-client', 'payment'] });
    db = crm.t.kernel.db;
    ({ headers: admin, contactId: adminId } = await crm.userWith('root', ['*']));
    ({ headers: editor, contactId: editorId } = await crm.userWith('editor', [
      'access CRM',
      'add contacts',
      'edit all contacts',
      'view all contacts',
    ]));
  });
  after(() => crm?.t.close());

  it('is off by default: no log tables, the setting reads false', async () => {
    const setting = await crm.api3(admin, 'Setting', 'getvalue', { name: 'logging' });
    expect(setting).to.deep.equal({ is_error: 0, result: 0 });
    expect(await logTables()).to.deep.equal([]);
  });

  it('turning logging on (Setting.create) makes a log table per entity table, seeded as Initialization', async () => {
    const before = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Pre' },
    });
    const made = await crm.api3(admin, 'Setting', 'create', { logging: 1 });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const tables = await logTables();
    expect(tables).to.include.members(['log_crm_contact', 'log_crm_email', 'log_crm_custom_group']);
    expect(tables).not.to.include('log_crm_job_log');
    const seeded = await logRows('crm_contact', Number(before.values[0].id));
    expect(seeded.map((row) => row.log_action)).to.deep.equal(['Initialization']);
    const columns = (
      await db.raw(`select column_name from information_schema.columns where table_schema = current_schema()
      and table_name = 'log_crm_contact'`)
    ).rows.map((row: Row) => row.column_name);
    expect(columns).to.include.members(['id', 'first_name', 'log_date', 'log_conn_id', 'log_user_id', 'log_action']);
  });

  it('APIv4 create, APIv3 update and APIv4 delete are recorded with who, when, before and after', async () => {
    const made = await crm.api4(editor, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Ann' },
    });
    expect(made, JSON.stringify(made)).to.have.property('values');
    ann = Number(made.values[0].id);
    const updated = await crm.api3(admin, 'Contact', 'create', { id: ann, first_name: 'Anne', last_name: 'Smith' });
    expect(updated, JSON.stringify(updated)).to.include({ is_error: 0 });
    const rows = await logRows('crm_contact', ann);
    expect(rows.map((row) => row.log_action)).to.deep.equal(['Insert', 'Update']);
    expect(rows.map((row) => row.log_user_id)).to.deep.equal([editorId, adminId]);
    expect(rows[0].log_conn_id).to.be.a('string').and.not.equal(rows[1].log_conn_id);

    const entries = await history('Contact', ann);
    expect(entries.map((entry) => entry.action)).to.deep.equal(['Insert', 'Update']);
    expect(entries[1]).to.include({ entity: 'Contact', entity_id: ann, contact_id: adminId });
    expect(entries[1].changes).to.deep.include({
      first_name: { before: 'Ann', after: 'Anne' },
      last_name: { before: null, after: 'Smith' },
    });

    const email = await crm.api4(admin, 'Email', 'create', { values: { contact_id: ann, email: 'ann@example.org' } });
    const emailId = Number(email.values[0].id);
    const gone = await crm.api4(admin, 'Email', 'delete', { where: [['id', '=', emailId]] });
    expect(gone, JSON.stringify(gone)).to.have.property('values');
    const emailHistory = await history('Email', emailId);
    expect(emailHistory.map((entry) => entry.action)).to.deep.equal(['Insert', 'Delete']);
    expect(emailHistory[1].changes).to.deep.include({ email: { before: 'ann@example.org', after: null } });
  });

  it("a chained APIv3 write (api.Email.create) is logged with the caller, in the parent call's change set", async () => {
    const made = await crm.api3(editor, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Chained',
      'api.Email.create': { email: 'chained@example.org' },
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const contact = (await logRows('crm_contact', Number(made.id)))[0];
    const emails = (await db('log_crm_email').where({ contact_id: made.id })) as Row[];
    expect(emails.map((row) => [row.log_action, row.log_user_id])).to.deep.equal([['Insert', editorId]]);
    expect(emails[0].log_conn_id).to.equal(contact.log_conn_id);
  });

  it('Logging.get answers the field changes of one change set (log_conn_id)', async () => {
    const [, update] = await logRows('crm_contact', ann);
    const answer = await crm.api3(admin, 'Logging', 'get', { log_conn_id: update.log_conn_id });
    expect(answer, JSON.stringify(answer)).to.include({ is_error: 0 });
    const values = answer.values as unknown as Row[];
    expect(values).to.deep.include({
      action: 'Update',
      id: String(ann),
      field: 'first_name',
      from: 'Ann',
      to: 'Anne',
      table: 'crm_contact',
      log_date: values[0].log_date,
      log_conn_id: String(update.log_conn_id),
    });
    const missing = await crm.api3(admin, 'Logging', 'get', {});
    expect(missing.is_error).to.equal(1);
    const [{ after }] = (
      await db.raw(
        `select to_char(log_date + interval '1 second', 'YYYY-MM-DD HH24:MI:SS') as after from log_crm_contact
          where log_conn_id = ? limit 1`,
        [String(update.log_conn_id)],
      )
    ).rows;
    const inWindow = await crm.api3(admin, 'Logging', 'get', { log_conn_id: update.log_conn_id, log_date: after });
    expect(inWindow, JSON.stringify(inWindow)).to.include({ is_error: 0, count: answer.count });
    const outside = await crm.api3(admin, 'Logging', 'get', {
      log_conn_id: update.log_conn_id,
      log_date: '2999-01-01 00:00:00',
      interval: '10 SECOND',
    });
    expect(outside).to.include({ is_error: 0, count: 0 });
    const impossible = await crm.api3(admin, 'Logging', 'get', {
      log_conn_id: update.log_conn_id,
      log_date: '20261345',
    });
    expect(impossible).to.include({ is_error: 1 });
    expect(String(impossible.error_message)).to.contain('log_date is not a valid date');
    const badInterval = await crm.api3(admin, 'Logging', 'get', {
      log_conn_id: update.log_conn_id,
      log_date: '20261125120000',
      interval: '1; drop',
    });
    expect(String(badInterval.error_message)).to.contain('interval must be like');
  });

  it('a custom field added while logging is on is logged: its column appears in the log table', async () => {
    const group = await crm.api3(admin, 'CustomGroup', 'create', { title: 'Audit Extra', extends: 'Individual' });
    const field = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: group.id,
      label: 'Shoe size',
      data_type: 'Int',
      html_type: 'Text',
    });
    expect(field, JSON.stringify(field)).to.include({ is_error: 0 });
    const table = `crm_value_audit_extra_${group.id}`;
    const column = `shoe_size_${field.id}`;
    const columns = (
      await db.raw(
        `select column_name from information_schema.columns where table_schema = current_schema()
      and table_name = ?`,
        [`log_${table}`],
      )
    ).rows.map((row: Row) => row.column_name);
    expect(columns).to.include(column);
    await crm.api3(admin, 'Contact', 'create', { id: ann, [`custom_${field.id}`]: 42 });
    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', ann]], values: { 'Audit_Extra.Shoe_size': 43 } });
    const entries = (await history('Contact', ann)).filter((entry) => entry.entity === 'Custom_Audit_Extra');
    expect(entries.map((entry) => entry.action)).to.deep.equal(['Insert', 'Update']);
    expect(entries[1].changes).to.deep.equal({ Shoe_size: { before: 42, after: 43 } });
  });

  it('System.updatelogtables adds a column a table gained (4.7.7) and answers how many log tables changed', async () => {
    await db.raw('alter table crm_phone add column audit_probe varchar(32)');
    const answer = await crm.api3(admin, 'System', 'updatelogtables', {});
    expect(answer, JSON.stringify(answer)).to.include({ is_error: 0, values: 1 });
    const columns = (
      await db.raw(`select column_name from information_schema.columns where table_schema = current_schema()
      and table_name = 'log_crm_phone'`)
    ).rows.map((row: Row) => row.column_name);
    expect(columns).to.include('audit_probe');
    const again = await crm.api3(admin, 'System', 'updatelogtables', {});
    expect(again).to.include({ is_error: 0, values: 0 });
    await db.raw('alter table crm_phone drop column audit_probe');
  });

  it('secret columns are masked: an API key and a processor password are neither stored nor shown, only that they changed', async () => {
    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', ann]], values: { api_key: 'very-secret-key-1' } });
    const entries = await history('Contact', ann);
    const change = entries[entries.length - 1].changes as Row;
    expect(change.api_key).to.deep.equal({ before: null, after: '******' });
    const raw = JSON.stringify(await logRows('crm_contact', ann));
    expect(raw).not.to.include('very-secret-key-1');

    const processor = await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'Audited desk',
      payment_processor_type_id: 'Dummy',
      user_name: 'merchant-9',
      password: 'processor-pass-1',
    });
    expect(processor, JSON.stringify(processor)).to.include({ is_error: 0 });
    await crm.api3(admin, 'PaymentProcessor', 'create', { id: processor.id, password: 'processor-pass-2' });
    const processorHistory = await history('PaymentProcessor', Number(processor.id));
    expect(processorHistory.map((entry) => (entry.changes as Row).password)).to.deep.equal([
      { before: null, after: '******' },
      { before: '******', after: '******' },
    ]);
    expect(JSON.stringify(processorHistory)).not.to.match(/processor-pass/);
    const stored = JSON.stringify(await logRows('crm_payment_processor', Number(processor.id)));
    expect(stored).not.to.match(/processor-pass/);
  });

  it('only administrators read the history', async () => {
    const refused = await crm.api4(editor, 'LogEntry', 'get', {
      where: [
        ['entity', '=', 'Contact'],
        ['entity_id', '=', ann],
      ],
    });
    expect(refused).to.have.property('error_code');
    const bad = await crm.api4(admin, 'LogEntry', 'get', { where: [['entity', '=', 'Contact']] });
    expect(bad)
      .to.have.property('error_message')
      .that.matches(/entity_id/);
  });

  it('turning logging off drops the triggers and keeps the log tables; writes are no longer recorded', async () => {
    const off = await crm.api4(admin, 'Setting', 'set', { values: { logging: false } });
    expect(off, JSON.stringify(off)).to.have.property('values');
    const count = (await logRows('crm_contact', ann)).length;
    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', ann]], values: { first_name: 'Annie' } });
    expect((await logRows('crm_contact', ann)).length).to.equal(count);
    expect(await logTables()).to.include('log_crm_contact');
  });
});
