/** crm export (CSV and JSON, keyset pages, formula cells neutralised) and Import.run over HTTP. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { neutralise } from '../../../plugins/api4';
import { bootImportExport, type Harness } from './harness';

describe('import-export: crm export and Import.run', function () {
  this.timeout(120000);
  let crm: Harness;
  let admin: Record<string, string>;
  before(async () => {
    crm = await bootImportExport();
    admin = (await crm.userWith('exporter', ['administer CRM', 'access CRM', 'view all contacts', 'edit all contacts']))
      .headers;
  });
  after(() => crm.t.close());

  it('Import.run imports CSV text over HTTP and answers the summary with the rejected rows', async () => {
    const csv =
      'first_name,last_name,email,job_title\n' +
      "Formula,Person,f@example.org,=cmd|' /C calc'!A0\n" +
      'Plus,Person,p@example.org,+1 555\n' +
      'No,Mail,nope,\n' +
      Array.from({ length: 12 }, (_, i) => `Page${i},Person,page${i}@example.org,-${i}`).join('\n') +
      '\n';
    const answer = await crm.api4(admin, 'Import', 'run', { csv, onDuplicate: 'skip' });
    expect(answer.values[0], JSON.stringify(answer)).to.include({ rows_read: 15, created: 14, rejected: 1 });
    expect(answer.values[0].rejections).to.deep.equal([{ row: 3, reason: 'email: "nope" is not an email address' }]);
    const unknown = await crm.api4(admin, 'Import', 'run', { csv: 'a\nb\n', mapping: { a: 'nope' } });
    expect(unknown).to.include({ error_message: 'The mapping names unknown fields: a → nope' });
    const denied = await crm.api4((await crm.userWith('reader', ['access CRM'])).headers, 'Import', 'run', { csv });
    expect(denied.error_message).to.match(/Authorization failed/);
  });

  it('exports as CSV in keyset pages, neutralising cells a spreadsheet would run', async () => {
    const out = crm.file('contacts.csv');
    const answer = JSON.parse(
      await crm.cli('export', [], {
        select: 'first_name,last_name,job_title',
        where: '[["last_name","=","Person"]]',
        output: out,
        pageSize: '5',
      }),
    );
    expect(answer).to.include({ entity: 'Contact', rows: 14, file: out });
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines.slice(0, 4)).to.deep.equal([
      'first_name,last_name,job_title',
      "Formula,Person,'=cmd|' /C calc'!A0",
      "Plus,Person,'+1 555",
      "Page0,Person,'-0",
    ]);
    expect(lines).to.have.length(16);
  });

  it('exports as JSON: one array, every row once, whatever the page size', async () => {
    const out = crm.file('contacts.json');
    await crm.cli('export', [], {
      select: 'first_name,job_title',
      where: '[["last_name","=","Person"]]',
      format: 'json',
      output: out,
      pageSize: '4',
    });
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    expect(rows).to.have.length(14);
    expect(rows[0]).to.deep.equal({ first_name: 'Formula', job_title: "=cmd|' /C calc'!A0" });
    const bad = await crm.cli('export', [], { where: '{"x":1}' }).catch((err: Error) => err.message);
    expect(bad).to.match(/--where must be an APIv4 where list/);
  });

  it('exports sorted by a field (--sort), in pages, the rows of the sorted get and only those', async () => {
    // Two without a job title (NULLs: first when descending) and a tie with Page3's.
    const maker = (await crm.userWith('maker', ['*'])).headers;
    for (const values of [{ first_name: 'Null1' }, { first_name: 'Null2' }, { first_name: 'Tie', job_title: '-3' }])
      await crm.api4(maker, 'Contact', 'create', {
        values: { contact_type: 'Individual', last_name: 'Person', ...values },
      });
    for (const dir of ['desc', 'asc']) {
      const expected = await crm.api4(admin, 'Contact', 'get', {
        select: ['first_name'],
        where: [['last_name', '=', 'Person']],
        orderBy: { job_title: dir.toUpperCase() },
        limit: 100,
      });
      expect(expected.values).to.have.length(17);
      const out = crm.file(`sorted-${dir}.json`);
      // Pages of 2: descending, the two NULLs fill the first page, and the walk goes on into the values.
      const options = { select: 'first_name', where: '[["last_name","=","Person"]]', format: 'json', output: out };
      await crm.cli('export', [], { ...options, pageSize: '2', sort: `job_title:${dir}` });
      expect(JSON.parse(readFileSync(out, 'utf8')), dir).to.deep.equal(expected.values);
    }
    const bad = await crm.cli('export', [], { sort: 'created_date' }).catch((err: Error) => err.message);
    expect(bad).to.match(/--sort created_date: give a String, Text, Integer or Date field of Contact/);
  });

  it('neutralises =, +, -, @, tab and carriage return at the start of a text cell; numbers stay', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'a=b', ''].map(neutralise)).to.deep.equal([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'a=b',
      '',
    ]);
    expect(neutralise(-5)).to.equal('-5');
  });
});
