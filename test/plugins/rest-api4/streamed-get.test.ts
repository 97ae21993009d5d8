/**
 * A get without a limit over HTTP, written page by page (keyset pages of 2 here): the same answer as the
 * one-call path, as JSON or CSV, with row access, and bad params refused before the first byte.
 */
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, bootApi4, postApi4, type Api4Kernel, type User } from '../api4/helpers';

type Obj = Record<string, unknown>;

describe('rest-api4: a get without a limit, streamed', () => {
  let k: Api4Kernel;
  let admin: User;
  let mine: User;
  const post = (u: User, path: string, params: unknown, extra: Record<string, unknown> = {}) =>
    postApi4(k, u, path, params, extra);
  /** The same get through the one-call path: a limit larger than the result. */
  const buffered = (u: User, path: string, params: Obj) => post(u, path, { ...params, limit: 1000 });
  const streamed = (res: { headers: Obj }) => res.headers['transfer-encoding'] === 'chunked';

  before(async () => {
    k = await bootApi4({ config: { 'rest-api4': { streamPageSize: 2 } } });
    admin = await k.user('boss', ['*']);
    mine = await k.user('self', ['access CRM', 'administer CRM', 'view my contact']);
    const names = ['=1+1', 'Ann', '+44 20', 'Bob', '@SUM(A1)', 'Cy', 'Di', 'Ed', 'Flo'];
    for (const [i, first] of names.entries()) {
      const made = await post(admin, 'Contact/create', {
        values: { contact_type: 'Individual', first_name: first, last_name: `Streamed${i % 3}`, job_title: 'a,"b"' },
      });
      await post(admin, 'Email/create', { values: { contact_id: made.body.values[0].id, email: `s${i}@example.org` } });
    }
    for (let i = 0; i < 5; i++)
      await post(admin, 'Email/create', { values: { contact_id: mine.contactId, email: `mine${i}@example.org` } });
    // Contacts without a last name: a walk sorted by it meets NULLs (after the values ascending, before descending).
    for (const name of ['Org A', 'Org B', 'Org C'])
      await post(admin, 'Contact/create', { values: { contact_type: 'Organization', organization_name: name } });
  });
  after(async () => k?.t.close());

  const QUERIES: Array<[string, Obj]> = [
    ['every field', { where: [['last_name', 'LIKE', 'Streamed%']] }],
    ['limit 0, a select without id', { select: ['first_name', 'email_primary.email'], limit: 0 }],
    ['id descending, an offset', { select: ['id', 'display_name'], orderBy: { id: 'DESC' }, offset: 3 }],
    ['a suffix and a where', { select: ['contact_type:label', 'last_name'], where: [['last_name', '=', 'Streamed1']] }],
    [
      'sorted by a field with ties and NULLs',
      { select: ['id', 'first_name', 'last_name'], orderBy: { last_name: 'ASC' } },
    ],
    ['sorted descending by a field not selected', { select: ['first_name'], orderBy: { last_name: 'DESC' } }],
    ['sorted by a field, a where', { orderBy: { first_name: 'DESC' }, where: [['contact_type', '=', 'Individual']] }],
    [
      'a chain',
      {
        select: ['first_name'],
        where: [['last_name', '=', 'Streamed0']],
        chain: { e: ['Email', 'get', { where: [['contact_id', '=', '$id']], select: ['email'] }] },
      },
    ],
  ];
  for (const [name, params] of QUERIES)
    it(`answers the one-call path's JSON byte for byte: ${name}`, async () => {
      const [whole, paged] = [await buffered(admin, 'Contact/get', params), await post(admin, 'Contact/get', params)];
      expect(whole.status).to.equal(200);
      expect(paged.status).to.equal(200);
      expect(paged.type).to.equal('application/json');
      expect(streamed(paged), 'streamed').to.equal(true);
      expect(streamed(whole)).to.equal(false);
      expect(paged.body.values.length).to.be.greaterThan(2);
      expect(paged.text).to.equal(whole.text);
      expect(paged.body).to.include({ count: whole.body.values.length, countFetched: whole.body.values.length });
    });

  it('walks an Integer sort with ties (emails by contact, descending) and keeps the one-call path for a timestamp', async () => {
    const byContact = { select: ['email'], orderBy: { contact_id: 'DESC' } };
    const paged = await post(admin, 'Email/get', byContact);
    expect(streamed(paged), 'streamed').to.equal(true);
    expect(paged.text).to.equal((await buffered(admin, 'Email/get', byContact)).text);
    // A timestamp read back loses its fraction of a second: no walk can compare it, so the answer is one body.
    const byDate = { select: ['id'], orderBy: { created_date: 'ASC' } };
    const whole = await post(admin, 'Contact/get', byDate);
    expect(streamed(whole)).to.equal(false);
    expect(whole.body.values.length).to.be.greaterThan(2);
  });

  it('answers a result that fits in one page as one body, as before', async () => {
    const params = { select: ['first_name'], where: [['first_name', '=', 'Ann']] };
    const res = await post(admin, 'Contact/get', params);
    expect(streamed(res)).to.equal(false);
    expect(res.text).to.equal((await buffered(admin, 'Contact/get', params)).text);
  });

  it('answers CSV with format=csv: a header from the select, formula cells neutralised, quoting', async () => {
    const params = { select: ['first_name', 'job_title', 'is_opt_out'], where: [['last_name', 'LIKE', 'Streamed%']] };
    const res = await post(admin, 'Contact/get', params, { format: 'csv' });
    expect(res.status).to.equal(200);
    expect(res.type).to.equal('text/csv');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="Contact.csv"');
    expect(streamed(res)).to.equal(true);
    const lines = res.text.split('\n');
    expect(lines.slice(0, 4)).to.deep.equal([
      'first_name,job_title,is_opt_out',
      `'=1+1,"a,""b""",false`,
      'Ann,"a,""b""",false',
      `'+44 20,"a,""b""",false`,
    ]);
    expect(lines[5]).to.equal(`'@SUM(A1),"a,""b""",false`);
    expect(lines).to.have.length(11); // header, 9 rows, the last line's end
    // With a limit the one-call path answers the same CSV.
    const limited = await post(admin, 'Contact/get', { ...params, limit: 100 }, { format: 'csv' });
    expect(streamed(limited)).to.equal(false);
    expect(limited.text).to.equal(res.text);
    const none = await post(
      admin,
      'Contact/get',
      { select: ['first_name'], where: [['id', '<', 0]] },
      { format: 'csv' },
    );
    expect(none.text).to.equal('first_name\n');
  });

  it('applies row access to every page: a user who may see only their own contact reads only its emails', async () => {
    const res = await post(mine, 'Email/get', { select: ['email', 'contact_id'] });
    expect(res.status).to.equal(200);
    expect(streamed(res)).to.equal(true);
    expect(res.body.values.map((row: Obj) => row.email)).to.deep.equal(
      [0, 1, 2, 3, 4].map((i) => `mine${i}@example.org`),
    );
    expect(res.body.count).to.equal(5);
    const csv = await post(mine, 'Contact/get', { select: ['id'] }, { format: 'csv' });
    expect(csv.text).to.equal(`id\n${mine.contactId}\n`);
  });

  it('refuses bad params with the usual error answer, before any row is written', async () => {
    const bad = await post(admin, 'Contact/get', { select: ['nope'] });
    expect(bad.status).to.equal(400);
    expect(bad.type).to.equal('application/json');
    expect(bad.body).to.include({ status: 400 });
    expect(bad.body.error_message).to.match(/nope/);
    const where = await post(admin, 'Contact/get', { where: 'bogus' }, { format: 'csv' });
    expect([where.status, where.type]).to.deep.equal([400, 'application/json']);
    const format = await post(admin, 'Contact/get', {}, { format: 'xml' });
    expect([format.status, format.body.error_message]).to.deep.equal([400, 'format must be json or csv']);
    const create = await post(admin, 'Contact/create', { values: { contact_type: 'Individual' } }, { format: 'csv' });
    expect([create.status, create.body.error_message]).to.deep.equal([400, 'format=csv answers a get only']);
    const index = await post(admin, 'Contact/get', {}, { format: 'csv', index: 'id' });
    expect([index.status, index.body.error_message]).to.deep.equal([400, 'index cannot be used with format=csv']);
  });

  it('closes the connection when a page fails after the first byte, logs it, and goes on serving', async () => {
    // The chained get selects the field each row's job title names: the fourth row's (on page 2) is unknown.
    for (const [i, job] of ['id', 'id', 'id', 'nope'].entries())
      await post(admin, 'Contact/create', {
        values: { contact_type: 'Individual', first_name: `Cut${i}`, last_name: 'Cut', job_title: job },
      });
    const params = {
      select: ['first_name'],
      where: [['last_name', '=', 'Cut']],
      chain: { c: ['Contact', 'get', { select: ['$job_title'], where: [['id', '=', '$id']] }] },
    };
    expect((await buffered(admin, 'Contact/get', params)).status).to.equal(400);
    // Over a real socket: the status and the rows written so far arrive, then the answer is cut off.
    const server = createServer((await k.t.app()).callback()).listen(0);
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/crm/ajax/api4/Contact/get`, {
        method: 'POST',
        headers: { ...bearer(admin.key), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ params: JSON.stringify(params) }),
      });
      expect(res.status).to.equal(200);
      let text = '';
      const reader = res.body!.getReader();
      const failure = await (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          text += Buffer.from(value).toString();
        }
      })().catch((err: Error) => err);
      expect(failure, 'the body fails').to.be.instanceOf(Error);
      expect(text).to.match(/^\{"values":\[\{"first_name":"Cut0"/);
      expect(() => JSON.parse(text)).to.throw();
    } finally {
      server.close();
    }
    const line = k.t.logs.find((text) => text.includes('APIv4 get stream cut off after 2 rows'));
    expect(line, 'the cut is logged').to.be.a('string');
    expect(JSON.parse(line!)).to.include({ level: 50, entity: 'Contact', rowsWritten: 2 });
    expect((await post(admin, 'Contact/get', { select: ['id'], limit: 1 })).status).to.equal(200);
  });

  it('keeps the one-call path (and its rowsPerRead refusal) for a caller without administer CRM', async () => {
    const reader = await k.user('reader', ['access CRM', 'view all contacts']);
    const params = { select: ['first_name'], where: [['last_name', 'LIKE', 'Streamed%']] };
    const res = await post(reader, 'Contact/get', params);
    expect(streamed(res)).to.equal(false);
    expect(res.text).to.equal((await buffered(admin, 'Contact/get', params)).text);
  });
});
