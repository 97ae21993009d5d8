/**
 * APIv4 `save` with many new records (issue 18, item 1): created in a few multi-row INSERTs with the same
 * outcome as one by one — primary rules, related records, order, row access — and all or nothing.
 */
import { expect } from 'chai';
import { sqlDuring } from '../../../host/testing';
import { ADMIN, bearer, bootApi4, type Api4Kernel, type User } from './helpers';

type Row = Record<string, any>;

describe('api4 save: many new records in one batch (issue 18)', function () {
  this.timeout(60000);
  let k: Api4Kernel;
  let boss: User;
  const post = (user: User, path: string, params: unknown) =>
    k
      .req()
      .post(`/crm/ajax/api4/${path}`)
      .set(bearer(user.key))
      .type('form')
      .send({ params: JSON.stringify(params) });
  before(async () => {
    k = await bootApi4();
    boss = await k.user('boss', ['*']);
  });
  after(async () => k?.t.close());

  /** The rows a save answered, as the table holds them. */
  const storedContacts = (answer: { values: Row[] }, order: string, columns: string[]) =>
    k.t.kernel
      .db('crm_contact')
      .whereIn(
        'id',
        answer.values.map((row) => row.id),
      )
      .orderBy(order)
      .select(columns);

  const people = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({
      first_name: `${tag}${i}`,
      last_name: 'Batch',
      'email_primary.email': `${tag}${i}@Example.org`,
    }));

  it('creates 200 contacts with their primary emails in a fixed number of statements, in order', async () => {
    let result: any;
    const sqls = await sqlDuring(k.t.kernel.db, async () => {
      result = await k.call(
        'Contact',
        'save',
        { records: people(200, 'b'), defaults: { contact_type: 'Individual' } },
        ADMIN,
      );
    });
    expect(result.values.map((row: Row) => row.first_name)).to.deep.equal(people(200, 'b').map((p) => p.first_name));
    expect(result.values[7]).to.include({
      display_name: 'b7 Batch',
      sort_name: 'Batch, b7',
      contact_type: 'Individual',
    });
    // Email's rules ran: lower-cased, primary, default location type.
    expect(result.values[7]['email_primary.email']).to.equal('b7@example.org');
    // The answer shows each record as a get reads it afterwards (built from the write's own read-back).
    const saved = result.values[7] as Row;
    const [read] = (
      await k.call('Contact', 'get', { select: Object.keys(saved), where: [['id', '=', saved.id]] }, ADMIN)
    ).values as Row[];
    expect(saved).to.deep.equal(read);
    const inserts = sqls.filter((sql) => /^insert/i.test(sql));
    expect(inserts, sqls.join('\n')).to.have.length(2);
    expect(sqls.length, sqls.join('\n')).to.be.below(20);
    // New contacts' first emails: no other primary to clear, none left without one, so no UPDATE of the emails.
    expect(
      sqls.filter((sql) => /^update "?crm_email/i.test(sql)),
      sqls.join('\n'),
    ).to.deep.equal([]);
    const emails = await k.t.kernel
      .db('crm_email')
      .whereIn(
        'contact_id',
        result.values.map((row: Row) => row.id),
      )
      .select('contact_id', 'email', 'is_primary', 'location_type_id');
    expect(emails).to.have.length(200);
    expect(emails.every((row: Row) => row.is_primary === true && Number(row.location_type_id) > 0)).to.equal(true);
    // Each contact has its own random hash (cut from a pooled buffer of random bytes, never reused).
    const hashes = await k.t.kernel
      .db('crm_contact')
      .whereIn(
        'id',
        result.values.map((row: Row) => row.id),
      )
      .pluck('hash');
    expect(hashes.every((hash: string) => /^[0-9a-f]{32}$/.test(hash))).to.equal(true);
    expect(new Set(hashes).size).to.equal(200);
  });

  it('Email records in one batch follow the primary rules as one by one would (last primary wins)', async () => {
    const made = await k.call(
      'Contact',
      'save',
      {
        records: [{ first_name: 'Pat', 'email_primary.email': 'pat@one.org' }, { first_name: 'Sam' }],
        defaults: { contact_type: 'Individual' },
      },
      ADMIN,
    );
    const [pat, sam] = made.values.map((row: Row) => Number(row.id));
    await k.call(
      'Email',
      'save',
      {
        records: [
          { contact_id: pat, email: 'pat@two.org', is_primary: true, is_bulkmail: true },
          { contact_id: pat, email: 'pat@three.org', is_primary: true },
          { contact_id: sam, email: 'sam@one.org' },
          { contact_id: sam, email: 'sam@two.org' },
          { contact_id: sam, email: 'sam@three.org', is_bulkmail: true },
        ],
      },
      ADMIN,
    );
    const rows = await k.t.kernel
      .db('crm_email')
      .whereIn('contact_id', [pat, sam])
      .orderBy('id')
      .select('email', 'is_primary', 'is_bulkmail');
    expect(rows.map((row: Row) => [row.email, row.is_primary, row.is_bulkmail])).to.deep.equal([
      ['pat@one.org', false, false],
      ['pat@two.org', false, true],
      ['pat@three.org', true, false],
      ['sam@one.org', true, false],
      ['sam@two.org', false, false],
      ['sam@three.org', false, true],
    ]);
    // Sam had no name: his display name is his first primary email, as one by one.
    const [samRow] = await k.t.kernel.db('crm_contact').where('id', sam).select('display_name');
    expect(samRow.display_name).to.equal('Sam');
  });

  it('is all or nothing: one bad record refuses the batch and writes nothing', async () => {
    const count = async () => Number((await k.t.kernel.db('crm_contact').count({ n: '*' }))[0].n);
    const before = await count();
    const good = people(5, 'x').map((person) => ({ ...person, contact_type: 'Individual' }));
    const res = await post(boss, 'Contact/save', { records: [...good, { last_name: 'NoType' }] });
    expect(res.status, res.text).to.equal(400);
    expect(res.body.error_message).to.match(/contact_type/);
    expect(await count()).to.equal(before);
    expect(await k.t.kernel.db('crm_email').where('email', 'x0@example.org').first('id')).to.equal(undefined);
  });

  it('is all or nothing when a related record fails: the emails written beside the refused phone are gone too', async () => {
    const count = async (table: string) => Number((await k.t.kernel.db(table).count({ n: '*' }))[0].n);
    const before = [await count('crm_contact'), await count('crm_email'), await count('crm_phone')];
    const records = people(4, 'ph').map((person, i) => ({
      ...person,
      contact_type: 'Individual',
      'phone_primary.phone': i === 2 ? '5'.repeat(40) : `555-01${i}`, // Phone.phone holds 32 characters
    }));
    const res = await post(boss, 'Contact/save', { records });
    expect(res.status, res.text).to.be.within(400, 499);
    expect(res.body).to.include({ error_message: 'phone: 40 characters, at most 32', error_field: 'phone' });
    expect([await count('crm_contact'), await count('crm_email'), await count('crm_phone')]).to.deep.equal(before);
  });

  it('keeps row access: a user without permission to add contacts is refused the whole batch', async () => {
    const user = await k.user('viewer', ['access CRM', 'view all contacts']);
    const res = await post(user, 'Contact/save', { records: people(3, 'v'), defaults: { contact_type: 'Individual' } });
    expect(res.status, res.text).to.equal(403);
    expect(await k.t.kernel.db('crm_contact').where('first_name', 'v0').first('id')).to.equal(undefined);
  });

  it('stores any text exactly (quotes, backslashes, braces, commas, the word NULL, empty) and refuses an overlong value', async () => {
    const names = ['a"b', 'back\\slash', '{braces},commas', 'NULL', '', 'Zoë 🚀', "it's"];
    const answer = await k.call(
      'Contact',
      'save',
      { records: names.map((last_name) => ({ last_name, first_name: 'T' })), defaults: { contact_type: 'Individual' } },
      ADMIN,
    );
    const stored = await storedContacts(answer, 'id', ['last_name']);
    expect(stored.map((row: Row) => row.last_name)).to.deep.equal(names);
    const res = await post(boss, 'Contact/save', {
      records: [{ last_name: 'ok' }, { last_name: 'x'.repeat(300) }],
      defaults: { contact_type: 'Individual' },
    });
    expect(res.status, res.text).to.be.within(400, 499);
    expect(res.text).to.not.match(/at .*\.ts:/);
  });

  it('stores records whose columns differ or come in another order, and a number sent for a text field', async () => {
    const records = [
      { first_name: 'K1', last_name: 'Keys', external_identifier: 41001 },
      { last_name: 'Keys', first_name: 'K2', external_identifier: 'x-2' },
      { first_name: 'K3', last_name: 'Keys', middle_name: 'M' },
      { first_name: 'K4', last_name: 'Keys', external_identifier: -7.5 },
      { middle_name: 'N', last_name: 'Keys', first_name: 'K5' },
    ];
    const answer = await k.call('Contact', 'save', { records, defaults: { contact_type: 'Individual' } }, ADMIN);
    const stored = await storedContacts(answer, 'first_name', ['first_name', 'middle_name', 'external_identifier']);
    expect(stored).to.deep.equal([
      { first_name: 'K1', middle_name: null, external_identifier: '41001' },
      { first_name: 'K2', middle_name: null, external_identifier: 'x-2' },
      { first_name: 'K3', middle_name: 'M', external_identifier: null },
      { first_name: 'K4', middle_name: null, external_identifier: '-7.5' },
      { first_name: 'K5', middle_name: 'N', external_identifier: null },
    ]);
  });

  it('mixes updates (by id) and creates, answering in the records order', async () => {
    const first = await k.call(
      'Contact',
      'create',
      { values: { contact_type: 'Individual', first_name: 'Old' } },
      ADMIN,
    );
    const id = first.values[0].id;
    const answer = await k.call(
      'Contact',
      'save',
      {
        records: [{ first_name: 'N1' }, { id, first_name: 'Renamed' }, { first_name: 'N2' }],
        defaults: { contact_type: 'Individual' },
      },
      ADMIN,
    );
    expect(answer.values.map((row: Row) => row.first_name)).to.deep.equal(['N1', 'Renamed', 'N2']);
    expect(answer.values[1].id).to.equal(id);
  });
});
