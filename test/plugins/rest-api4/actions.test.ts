/** Every APIv4 action over HTTP, through the real route with real API keys (AuthX header flow). */
import { expect } from 'chai';
import { bearer, bootApi4, postApi4, type Api4Kernel, type User } from '../api4/helpers';

describe('rest-api4: actions over /crm/ajax/api4', () => {
  let k: Api4Kernel;
  let admin: User;
  let ann: number;
  let bob: number;
  const post = (u: User, path: string, params: unknown, extra: Record<string, unknown> = {}) =>
    postApi4(k, u, path, params, extra);
  const get = (u: User, path: string, params: unknown, extra: Record<string, string> = {}) =>
    k
      .req()
      .get(`/crm/ajax/api4/${path}`)
      .set(bearer(u.key))
      .query({ params: JSON.stringify(params), ...extra });

  before(async () => {
    k = await bootApi4();
    admin = await k.user('boss', ['*']);
    ann = (
      await post(admin, 'Contact/create', {
        values: { contact_type: 'Individual', first_name: 'Ann', last_name: 'Archer', do_not_email: true },
      })
    ).body.values[0].id;
    bob = (
      await post(admin, 'Contact/create', {
        values: {
          contact_type: 'Individual',
          first_name: 'Bob',
          last_name: 'Baker',
          contact_sub_type: ['Student', 'Staff'],
        },
      })
    ).body.values[0].id;
    await post(admin, 'Contact/create', { values: { contact_type: 'Organization', organization_name: 'Acme' } });
    await post(admin, 'Email/create', { values: { contact_id: ann, email: 'ann@example.org', is_primary: true } });
    await post(admin, 'Email/create', { values: { contact_id: bob, email: 'bob@example.org' } });
  });
  after(async () => k?.t.close());

  describe('create', () => {
    it('returns the record with JSON types and the envelope', async () => {
      const res = await post(admin, 'Contact/create', {
        values: {
          contact_type: 'Individual',
          first_name: 'Cy',
          last_name: 'Cole',
          is_opt_out: 1,
          contact_sub_type: ['Student'],
        },
      });
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('application/json');
      expect(res.body).to.include({
        entity: 'Contact',
        action: 'create',
        debug: null,
        version: 4,
        count: 1,
        countFetched: 1,
      });
      expect(res.body).not.to.have.property('countMatched');
      const contact = res.body.values[0];
      expect(contact.id).to.be.a('number');
      expect(contact).to.include({
        first_name: 'Cy',
        display_name: 'Cy Cole',
        is_opt_out: true,
        do_not_email: false,
        nick_name: null,
      });
      expect(contact.contact_sub_type).to.deep.equal(['Student']);
    });
    it('never echoes a secret field, even to its holders', async () => {
      const res = await post(admin, 'Contact/create', {
        values: { contact_type: 'Individual', first_name: 'Kay', api_key: 'secret-key-value-1' },
      });
      expect(res.status).to.equal(200);
      expect(res.text).not.to.include('secret-key-value-1');
      expect(res.body.values[0]).not.to.have.property('api_key');
    });
    it('a missing required value is a 400 envelope', async () => {
      const res = await post(admin, 'Contact/create', { values: { first_name: 'NoType' } });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ error_code: 'E_INVALID_PARAMS', status: 400 });
      expect(res.body.error_message).to.match(/contact_type/);
    });
  });

  describe('get', () => {
    it('selects fields, joins over a foreign key and keeps ints', async () => {
      const res = await get(admin, 'Email/get', {
        select: ['id', 'email', 'contact_id', 'contact_id.display_name'],
        where: [['contact_id', '=', ann]],
      });
      expect(res.status).to.equal(200);
      expect(res.body.values).to.deep.equal([
        {
          id: res.body.values[0].id,
          email: 'ann@example.org',
          contact_id: ann,
          'contact_id.display_name': 'Ann Archer',
        },
      ]);
    });
    it('select * returns every non-secret field; an explicit secret is returned to its holder only', async () => {
      const all = await get(admin, 'Contact/get', { select: ['*'], where: [['id', '=', ann]] });
      expect(all.body.values[0]).to.include({ first_name: 'Ann', do_not_email: true });
      expect(all.body.values[0]).not.to.have.property('api_key');
      await post(admin, 'Contact/update', { where: [['id', '=', ann]], values: { api_key: 'ann-secret-api-key' } });
      const mine = await get(admin, 'Contact/get', { select: ['api_key'], where: [['id', '=', ann]] });
      expect(mine.body.values).to.deep.equal([{ api_key: 'ann-secret-api-key' }]);
      const staff = await k.user('viewer', ['access CRM', 'view all contacts']);
      const theirs = await get(staff, 'Contact/get', { select: ['id', 'api_key'], where: [['id', '=', ann]] });
      expect(theirs.status).to.equal(200);
      expect(theirs.body.values).to.deep.equal([{ id: ann }]);
      const filter = await get(staff, 'Contact/get', { where: [['api_key', '=', 'ann-secret-api-key']] });
      expect(filter.status).to.equal(400);
    });
    it('nested AND/OR/NOT groups', async () => {
      const where = [
        ['contact_type', '=', 'Individual'],
        [
          'OR',
          [
            ['first_name', '=', 'Ann'],
            [
              'AND',
              [
                ['last_name', 'LIKE', 'B%'],
                ['NOT', [['first_name', '=', 'Zed']]],
              ],
            ],
          ],
        ],
      ];
      const res = await get(admin, 'Contact/get', { select: ['first_name'], where, orderBy: { first_name: 'DESC' } });
      expect(res.body.values).to.deep.equal([{ first_name: 'Bob' }, { first_name: 'Ann' }]);
      const not = await get(admin, 'Contact/get', {
        select: ['first_name'],
        where: [
          ['contact_type', '=', 'Individual'],
          ['NOT', [['first_name', 'IN', ['Ann', 'Bob', 'boss']]]],
        ],
        orderBy: { id: 'ASC' },
      });
      expect(not.body.values.map((r: { first_name: string }) => r.first_name)).not.to.include.members(['Ann', 'Bob']);
    });
    it('operators: IN, NOT IN, BETWEEN, IS NULL, IS NOT EMPTY, CONTAINS, !=', async () => {
      const names = async (where: unknown[]) =>
        (
          await get(admin, 'Contact/get', {
            select: ['first_name'],
            where: [['contact_type', '=', 'Individual'], ...where],
            orderBy: { first_name: 'ASC' },
          })
        ).body.values.map((r: { first_name: string }) => r.first_name);
      expect(await names([['first_name', 'IN', ['Ann', 'Bob']]])).to.deep.equal(['Ann', 'Bob']);
      expect(await names([['id', 'BETWEEN', [ann, bob]]])).to.deep.equal(['Ann', 'Bob']);
      expect(await names([['contact_sub_type', 'CONTAINS', 'Staff']])).to.deep.equal(['Bob']);
      expect(
        await names([
          ['contact_sub_type', 'IS NOT EMPTY'],
          ['first_name', '!=', 'Cy'],
        ]),
      ).to.deep.equal(['Bob']);
      expect(
        await names([
          ['first_name', 'NOT IN', ['Ann', 'Bob']],
          ['first_name', 'IN', ['Ann', 'Bob', 'Cy']],
        ]),
      ).to.deep.equal(['Cy']);
      expect(
        await names([
          ['last_name', 'IS NULL'],
          ['first_name', 'IN', ['Ann', 'Kay']],
        ]),
      ).to.deep.equal(['Kay']);
    });
    it('orderBy, limit, offset and row_count (countMatched)', async () => {
      const res = await get(admin, 'Contact/get', {
        select: ['first_name', 'row_count'],
        where: [
          ['contact_type', '=', 'Individual'],
          ['first_name', 'IN', ['Ann', 'Bob', 'Cy']],
        ],
        orderBy: { first_name: 'ASC' },
        limit: 1,
        offset: 1,
      });
      expect(res.body.values).to.deep.equal([{ first_name: 'Bob' }]);
      expect(res.body).to.include({ count: 3, countFetched: 1, countMatched: 3 });
      const only = await get(admin, 'Contact/get', { select: ['row_count'], where: [['first_name', '=', 'Ann']] });
      expect(only.body).to.include({ count: 1, countFetched: 0, countMatched: 1 });
      expect(only.body.values).to.deep.equal([]);
    });
    it('index: a field name keys the values, an integer picks one row', async () => {
      const byName = await get(
        admin,
        'Contact/get',
        { select: ['id', 'first_name'], where: [['first_name', 'IN', ['Ann', 'Bob']]] },
        { index: 'first_name' },
      );
      expect(byName.body.values).to.deep.equal({
        Ann: { id: ann, first_name: 'Ann' },
        Bob: { id: bob, first_name: 'Bob' },
      });
      const one = await get(
        admin,
        'Contact/get',
        { select: ['id'], where: [['first_name', 'IN', ['Ann', 'Bob']]], orderBy: { id: 'ASC' } },
        { index: '1' },
      );
      expect(one.body.values).to.deep.equal({ id: bob });
    });
    it('index: an object {key: value} maps one field to another; index fields not selected are fetched, not shown', async () => {
      const where = [['first_name', 'IN', ['Ann', 'Bob']]];
      const pairs = await get(admin, 'Contact/get', { select: ['last_name'], where }, { index: '{"id":"first_name"}' });
      expect(pairs.body.values).to.deep.equal({ [ann]: 'Ann', [bob]: 'Bob' });
      const keyed = await post(admin, 'Contact/get', { select: ['last_name'], where }, { index: 'first_name' });
      expect(keyed.body.values).to.deep.equal({ Ann: { last_name: 'Archer' }, Bob: { last_name: 'Baker' } });
      const bad = await get(admin, 'Contact/get', { select: ['id'], where }, { index: '{"id":"x","y":"z"}' });
      expect(bad.status).to.equal(400);
      expect(bad.body.error_message).to.match(/index must be/);
    });
    it('params may come as a JSON body, and single params merged from the query string', async () => {
      const res = await k
        .req()
        .post('/crm/ajax/api4/Contact/get')
        .set(bearer(admin.key))
        .send({ select: ['first_name'], where: [['id', '=', ann]] });
      expect(res.body.values).to.deep.equal([{ first_name: 'Ann' }]);
      const q = await k
        .req()
        .get('/crm/ajax/api4/Contact/get')
        .set(bearer(admin.key))
        .query({ select: JSON.stringify(['last_name']), where: JSON.stringify([['id', '=', bob]]) });
      expect(q.body.values).to.deep.equal([{ last_name: 'Baker' }]);
    });
  });

  describe('update, save, delete, replace', () => {
    it('update with where changes every match and returns them; a where matching nothing is a no-op', async () => {
      const res = await post(admin, 'Contact/update', {
        where: [['first_name', 'IN', ['Ann', 'Bob']]],
        values: { nick_name: 'Pal' },
      });
      expect(res.status).to.equal(200);
      expect(res.body.values.map((r: { nick_name: string }) => r.nick_name)).to.deep.equal(['Pal', 'Pal']);
      const none = await post(admin, 'Contact/update', {
        where: [['first_name', '=', 'Nobody']],
        values: { nick_name: 'X' },
      });
      expect(none.status).to.equal(200);
      expect(none.body).to.include({ count: 0 });
      const noWhere = await post(admin, 'Contact/update', { values: { nick_name: 'X' } });
      expect(noWhere.status).to.equal(400);
      const byId = await post(admin, 'Contact/update', { values: { id: ann, nick_name: 'Annie' } });
      expect(byId.body.values).to.have.length(1);
      expect(byId.body.values[0]).to.include({ id: ann, nick_name: 'Annie' });
    });
    it('save creates and updates several records with defaults and match', async () => {
      const res = await post(admin, 'Contact/save', {
        defaults: { contact_type: 'Individual', source: 'import' },
        records: [
          { first_name: 'Dee', external_identifier: 'X-1' },
          { id: bob, nick_name: 'Bobby' },
        ],
      });
      expect(res.status).to.equal(200);
      expect(res.body.values[0]).to.include({ first_name: 'Dee', source: 'import' });
      expect(res.body.values[1]).to.include({ id: bob, nick_name: 'Bobby' });
      const again = await post(admin, 'Contact/save', {
        match: ['external_identifier'],
        records: [{ contact_type: 'Individual', external_identifier: 'X-1', last_name: 'Dunn' }],
      });
      expect(again.body.values[0]).to.include({ id: res.body.values[0].id, first_name: 'Dee', last_name: 'Dunn' });
    });
    it('a failing save of several records writes nothing (one transaction)', async () => {
      const res = await post(admin, 'Contact/save', {
        records: [
          { contact_type: 'Individual', first_name: 'Tx1' },
          { contact_type: 'Individual', first_name: 'x'.repeat(100) },
        ],
      });
      expect(res.status).to.equal(400);
      const check = await get(admin, 'Contact/get', { select: ['row_count'], where: [['first_name', '=', 'Tx1']] });
      expect(check.body.countMatched).to.equal(0);
    });
    it('delete with where (contacts go to the trash) and replace', async () => {
      const eve = (await post(admin, 'Contact/create', { values: { contact_type: 'Individual', first_name: 'Eve' } }))
        .body.values[0].id;
      const del = await post(admin, 'Contact/delete', { where: [['id', '=', eve]] });
      expect(del.body.values).to.deep.equal([{ id: eve }]);
      expect((await get(admin, 'Contact/get', { where: [['id', '=', eve]] })).body.count).to.equal(0);
      expect(
        (
          await get(admin, 'Contact/get', {
            select: ['is_deleted'],
            where: [
              ['id', '=', eve],
              ['is_deleted', '=', true],
            ],
          })
        ).body.values,
      ).to.deep.equal([{ is_deleted: true }]);
      expect((await post(admin, 'Contact/delete', {})).status).to.equal(400);

      const rep = await post(admin, 'Email/replace', {
        where: [['contact_id', '=', ann]],
        records: [{ email: 'ann2@example.org' }, { email: 'ann3@example.org' }],
      });
      expect(rep.status).to.equal(200);
      expect(rep.body.values.map((r: { contact_id: number }) => r.contact_id)).to.deep.equal([ann, ann]);
      const emails = await get(admin, 'Email/get', {
        select: ['email'],
        where: [['contact_id', '=', ann]],
        orderBy: { email: 'ASC' },
      });
      expect(emails.body.values).to.deep.equal([{ email: 'ann2@example.org' }, { email: 'ann3@example.org' }]);
    });
    it('delete with useTrash false deletes a contact for good; useTrash elsewhere is refused', async () => {
      const fay = (await post(admin, 'Contact/create', { values: { contact_type: 'Individual', first_name: 'Fay' } }))
        .body.values[0].id;
      await post(admin, 'Email/create', { values: { contact_id: fay, email: 'fay@example.org' } });
      const del = await post(admin, 'Contact/delete', { where: [['id', '=', fay]], useTrash: false });
      expect(del.body.values).to.deep.equal([{ id: fay }]);
      const gone = await get(admin, 'Contact/get', {
        select: ['id'],
        where: [
          ['id', '=', fay],
          ['is_deleted', 'IN', [true, false]],
        ],
      });
      expect(gone.body.values).to.deep.equal([]);
      const emails = await get(admin, 'Email/get', { select: ['id'], where: [['contact_id', '=', fay]] });
      expect(emails.body.values).to.deep.equal([]);
      const refused = await post(admin, 'Email/delete', { where: [['id', '=', 0]], useTrash: false });
      expect(refused.status).to.equal(400);
      expect(refused.body.error_message).to.match(/useTrash/);
    });
    it('replace with match updates the matched records in place (same ids) and deletes the others', async () => {
      const before = await get(admin, 'Email/get', { select: ['id', 'email'], where: [['contact_id', '=', ann]] });
      const ids = Object.fromEntries(before.body.values.map((r: { id: number; email: string }) => [r.email, r.id]));
      const rep = await post(admin, 'Email/replace', {
        where: [['contact_id', '=', ann]],
        match: ['email'],
        records: [{ email: 'ann2@example.org', location_type_id: 2 }, { email: 'ann4@example.org' }],
      });
      expect(rep.status, JSON.stringify(rep.body)).to.equal(200);
      const after = await get(admin, 'Email/get', {
        select: ['id', 'email', 'location_type_id'],
        where: [['contact_id', '=', ann]],
        orderBy: { email: 'ASC' },
      });
      expect(after.body.values[0]).to.deep.equal({
        id: ids['ann2@example.org'],
        email: 'ann2@example.org',
        location_type_id: 2,
      });
      expect(after.body.values[1].email).to.equal('ann4@example.org');
      expect(after.body.values.map((r: { id: number }) => r.id)).to.not.include(ids['ann3@example.org']);
      const bad = await post(admin, 'Email/replace', {
        where: [['contact_id', '=', ann]],
        match: ['nope'],
        records: [],
      });
      expect(bad.status).to.equal(400);
    });
  });

  describe('meta', () => {
    it('getFields in the APIv4 shape, with options when loadOptions', async () => {
      const res = await get(admin, 'Email/getFields', { action: 'create', loadOptions: true });
      expect(res.status).to.equal(200);
      const byName = Object.fromEntries(res.body.values.map((f: { name: string }) => [f.name, f]));
      expect(byName.contact_id).to.include({
        name: 'contact_id',
        data_type: 'Integer',
        fk_entity: 'Contact',
        required: true,
        input_type: 'EntityRef',
      });
      expect(byName.is_primary).to.include({ data_type: 'Boolean', input_type: 'CheckBox', default_value: 0 });
      expect(byName.on_hold.options).to.deep.equal({ 0: 'No', 1: 'On Hold Bounce', 2: 'On Hold Opt Out' });
      const list = await get(admin, 'Email/getFields', {
        loadOptions: ['id', 'label'],
        select: ['name', 'options'],
        where: [],
      });
      const onHold = list.body.values.find((f: { name: string }) => f.name === 'on_hold');
      expect(onHold).to.deep.equal({
        name: 'on_hold',
        options: [
          { id: 0, label: 'No' },
          { id: 1, label: 'On Hold Bounce' },
          { id: 2, label: 'On Hold Opt Out' },
        ],
      });
      const contact = await get(admin, 'Contact/getFields', { select: ['name', 'serialize'] });
      expect(contact.body.values).to.deep.include({ name: 'contact_sub_type', serialize: 1 });
    });
    it('getActions lists what the caller may run; checkAccess answers per action and record', async () => {
      const all = await get(admin, 'Contact/getActions', {});
      expect(all.body.values.map((a: { name: string }) => a.name)).to.include.members([
        'get',
        'create',
        'update',
        'save',
        'delete',
        'replace',
        'getFields',
        'getActions',
        'checkAccess',
        'autocomplete',
      ]);
      const viewer = await k.user('looker', ['access CRM', 'view all contacts']);
      const some = await get(viewer, 'Contact/getActions', {});
      expect(some.body.values.map((a: { name: string }) => a.name))
        .to.include('get')
        .and.not.include('create');
      const yes = await post(admin, 'Contact/checkAccess', {
        action: 'create',
        values: { contact_type: 'Individual' },
      });
      expect(yes.body.values).to.deep.equal([{ access: true }]);
      const no = await post(viewer, 'Contact/checkAccess', { action: 'create', values: {} });
      expect(no.body.values).to.deep.equal([{ access: false }]);
      const rowNo = await post(viewer, 'Contact/checkAccess', { action: 'update', values: { id: ann } });
      expect(rowNo.body.values).to.deep.equal([{ access: false }]);
    });
  });

  describe('chain and multi-call', () => {
    it('chain runs per row with $id back-references, keyed by index', async () => {
      const res = await get(admin, 'Contact/get', {
        select: ['first_name'],
        where: [['id', '=', bob]],
        chain: {
          emails: ['Email', 'get', { select: ['email'], where: [['contact_id', '=', '$id']] }],
          first: ['Email', 'get', { select: ['email'], where: [['contact_id', '=', '$id']] }, 0],
        },
      });
      expect(res.status).to.equal(200);
      expect(res.body.values).to.deep.equal([
        { first_name: 'Bob', id: bob, emails: [{ email: 'bob@example.org' }], first: { email: 'bob@example.org' } },
      ]);
    });
    it('fields a chain refers to are fetched with the parent rows', async () => {
      const res = await get(admin, 'Email/get', {
        select: ['email'],
        where: [['contact_id', '=', bob]],
        chain: { owner: ['Contact', 'get', { select: ['first_name'], where: [['id', '=', '$contact_id']] }, 0] },
      });
      expect(res.body.values).to.deep.equal([
        { email: 'bob@example.org', id: res.body.values[0].id, contact_id: bob, owner: { first_name: 'Bob' } },
      ]);
    });
    it('chain after create writes in the same call; a failing chain rolls the parent back', async () => {
      const res = await post(admin, 'Contact/create', {
        values: { contact_type: 'Individual', first_name: 'Fay' },
        chain: { mail: ['Email', 'create', { values: { contact_id: '$id', email: 'fay@example.org' } }, 0] },
      });
      expect(res.status).to.equal(200);
      expect(res.body.values[0].mail).to.include({ contact_id: res.body.values[0].id, email: 'fay@example.org' });
      const bad = await post(admin, 'Contact/create', {
        values: { contact_type: 'Individual', first_name: 'Gus' },
        chain: { mail: ['Email', 'create', { values: { contact_id: '$id' } }] },
      });
      expect(bad.status).to.equal(400);
      expect((await get(admin, 'Contact/get', { where: [['first_name', '=', 'Gus']] })).body.count).to.equal(0);
    });
    it('multi-call answers an object with the same keys; a failing call keeps the success status', async () => {
      const calls = {
        people: ['Contact', 'get', { select: ['first_name'], where: [['id', '=', ann]] }],
        mail: ['Email', 'get', { select: ['email'], where: [['contact_id', '=', bob]] }, 'email'],
        bad: ['Nope', 'get', {}],
      };
      const res = await k
        .req()
        .post('/crm/ajax/api4')
        .set(bearer(admin.key))
        .type('form')
        .send({ calls: JSON.stringify(calls) });
      expect(res.status).to.equal(200);
      expect(res.body.people).to.include({ entity: 'Contact', action: 'get', count: 1 });
      expect(res.body.people.values).to.deep.equal([{ first_name: 'Ann' }]);
      expect(res.body.mail.values).to.deep.equal({ 'bob@example.org': { email: 'bob@example.org' } });
      expect(res.body.bad).to.include({ error_code: 'E_ACTION_NOT_FOUND', status: 404 });
      const allBad = await k
        .req()
        .post('/crm/ajax/api4')
        .set(bearer(admin.key))
        .type('form')
        .send({ calls: JSON.stringify({ a: ['Nope', 'get', {}] }) });
      expect(allBad.status).to.equal(404);
      const malformed = await k
        .req()
        .post('/crm/ajax/api4')
        .set(bearer(admin.key))
        .type('form')
        .send({ calls: '{not json' });
      expect(malformed.status).to.equal(400);
    });
  });
});
