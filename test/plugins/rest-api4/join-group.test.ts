/** APIv4 explicit joins, aggregates, groupBy and having over HTTP (issue 11, item 10). */
import { expect } from 'chai';
import { bearer, bootApi4, type Api4Kernel, type User } from '../api4/helpers';

type Row = Record<string, unknown>;

describe('rest-api4: explicit join, groupBy, having and SQL functions', () => {
  let k: Api4Kernel;
  let admin: User;
  const ids: Record<string, number> = {};
  const get = (u: User, entity: string, params: unknown) =>
    k
      .req()
      .post(`/crm/ajax/api4/${entity}/get`)
      .set(bearer(u.key))
      .type('form')
      .send({ params: JSON.stringify(params) });
  const values = async (u: User, entity: string, params: unknown): Promise<Row[]> => {
    const res = await get(u, entity, params);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.values;
  };
  const mine = ['sort_name', 'LIKE', '%Joiner%'];

  before(async () => {
    k = await bootApi4();
    admin = await k.user('boss', ['*']);
    for (const first of ['Ann', 'Bob', 'Cy']) {
      const contact = { contact_type: 'Individual', first_name: first, last_name: 'Joiner' };
      ids[first] = (await k.call('Contact', 'create', { values: contact })).values[0].id as number;
    }
    const org = { contact_type: 'Organization', organization_name: 'Joiner Ltd', legal_name: 'Joiner' };
    ids.Org = (await k.call('Contact', 'create', { values: org })).values[0].id as number;
    const emails: Array<[string, string, boolean, number]> = [
      ['Ann', 'ann@home.example', true, 1],
      ['Ann', 'ann@work.example', false, 2],
      ['Bob', 'bob@work.example', true, 2],
    ];
    for (const [who, email, primary, type] of emails)
      await k.call('Email', 'create', {
        values: { contact_id: ids[who], email, is_primary: primary, location_type_id: type },
      });
  });
  after(async () => k?.t.close());

  describe('join', () => {
    it('LEFT keeps every contact, linked by the ON fields and narrowed by conditions on the joined entity', async () => {
      const rows = await values(admin, 'Contact', {
        select: ['first_name', 'email.email'],
        join: [['Email AS email', 'LEFT', ['id', '=', 'email.contact_id'], ['email.is_primary', '=', true]]],
        where: [mine, ['contact_type', '=', 'Individual']],
        orderBy: { first_name: 'ASC' },
      });
      expect(rows).to.deep.equal([
        { first_name: 'Ann', 'email.email': 'ann@home.example' },
        { first_name: 'Bob', 'email.email': 'bob@work.example' },
        { first_name: 'Cy', 'email.email': null },
      ]);
    });

    it('INNER keeps matches only (one row per joined row), EXCLUDE the contacts with none', async () => {
      const inner = await values(admin, 'Contact', {
        select: ['first_name', 'email.email'],
        join: [['Email AS email', 'INNER']],
        where: [mine],
        orderBy: { 'email.email': 'ASC' },
      });
      expect(inner.map((row) => row['email.email'])).to.deep.equal([
        'ann@home.example',
        'ann@work.example',
        'bob@work.example',
      ]);
      const none = await values(admin, 'Contact', {
        select: ['display_name'],
        join: [['Email AS email', 'EXCLUDE']],
        where: [mine],
        orderBy: { display_name: 'ASC' },
      });
      expect(none.map((row) => row.display_name)).to.deep.equal(['Cy Joiner', 'Joiner Ltd']);
    });

    it('conditions take option names and quoted literals; where and orderBy use the alias; a join reads the other way', async () => {
      const work = await values(admin, 'Contact', {
        select: ['first_name', 'work.email', 'work.location_type_id:name'],
        join: [['Email AS work', 'INNER', ['work.location_type_id:name', '=', '"Work"']]],
        where: [mine, ['work.email', 'LIKE', '%example']],
        orderBy: { 'work.email': 'DESC' },
      });
      expect(work).to.deep.equal([
        { first_name: 'Bob', 'work.email': 'bob@work.example', 'work.location_type_id:name': 'Work' },
        { first_name: 'Ann', 'work.email': 'ann@work.example', 'work.location_type_id:name': 'Work' },
      ]);
      const owners = await values(admin, 'Email', {
        select: ['email', 'owner.first_name'],
        join: [['Contact AS owner', 'LEFT', ['contact_id', '=', 'owner.id']]],
        where: [['owner.last_name', '=', 'Joiner']],
        orderBy: { email: 'ASC' },
      });
      expect(owners.map((row) => row['owner.first_name'])).to.deep.equal(['Ann', 'Ann', 'Bob']);
    });

    it('refuses unknown entities, aliases, types, fields and value conditions off the joined entity (400)', async () => {
      const bad: unknown[] = [
        [['Nope AS n', 'LEFT']],
        [['Email AS first_name', 'LEFT']],
        [['Email AS e', 'SIDEWAYS']],
        [['Email AS e', 'LEFT', ['e.nope', '=', 'id']]],
        [['Email AS e', 'LEFT', ['first_name', '=', '"Ann"']]],
        [['Email AS e', 'LEFT', 'EntityTag']],
        [['Email AS e'], ['Phone AS e']],
        'Email',
      ];
      for (const join of bad) {
        const res = await get(admin, 'Contact', { select: ['id'], join });
        expect(res.status, JSON.stringify(join)).to.equal(400);
        expect(res.body.error_message)
          .to.be.a('string')
          .and.not.match(/select|from|syntax/i);
      }
      const field = await get(admin, 'Contact', { select: ['e.nope'], join: [['Email AS e', 'LEFT']] });
      expect(field.status).to.equal(400);
    });

    it('needs get on the joined entity, and joined rows follow row access', async () => {
      const self = await k.user('selfie', ['view my contact']);
      const denied = await get(self, 'Contact', { select: ['id'], join: [['LocationType AS lt', 'LEFT']] });
      expect(denied.status, JSON.stringify(denied.body)).to.equal(403);
      const rows = await values(self, 'Email', {
        select: ['id', 'c.display_name'],
        join: [['Contact AS c', 'LEFT', ['contact_id', '=', 'c.id']]],
      });
      expect(rows).to.deep.equal([]);
      const contacts = await values(self, 'Contact', {
        select: ['id', 'other.first_name'],
        join: [['Contact AS other', 'LEFT', ['other.last_name', '=', '"Joiner"']]],
      });
      expect(contacts).to.deep.equal([{ id: self.contactId, 'other.first_name': null }]);
    });
  });

  describe('groupBy, having and SQL functions', () => {
    it('COUNT per group, sorted by the alias; row_count counts groups', async () => {
      const res = await get(admin, 'Contact', {
        select: ['contact_type', 'COUNT(id) AS n', 'row_count'],
        where: [mine],
        groupBy: ['contact_type'],
        orderBy: { n: 'DESC' },
      });
      expect(res.body.values).to.deep.equal([
        { contact_type: 'Individual', n: 3 },
        { contact_type: 'Organization', n: 1 },
      ]);
      expect(res.body.countMatched).to.equal(2);
    });

    it('having filters groups by an aggregate; default alias is FN:field', async () => {
      const rows = await values(admin, 'Email', {
        select: ['contact_id', 'COUNT(id)'],
        where: [['contact_id.last_name', '=', 'Joiner']],
        groupBy: ['contact_id'],
        having: [['COUNT:id', '>', 1]],
      });
      expect(rows).to.deep.equal([{ contact_id: ids.Ann, 'COUNT:id': 2 }]);
    });

    it('GROUP_CONCAT over a join gives each contact its list; COUNT(*), MIN, MAX, SUM, AVG', async () => {
      const lists = await values(admin, 'Contact', {
        select: ['first_name', 'GROUP_CONCAT(email.email) AS emails', 'COUNT(DISTINCT email.id) AS n'],
        join: [['Email AS email', 'LEFT']],
        where: [mine, ['contact_type', '=', 'Individual']],
        groupBy: ['id'],
        orderBy: { first_name: 'ASC' },
      });
      expect(lists).to.deep.equal([
        { first_name: 'Ann', emails: ['ann@home.example', 'ann@work.example'], n: 2 },
        { first_name: 'Bob', emails: ['bob@work.example'], n: 1 },
        { first_name: 'Cy', emails: [], n: 0 },
      ]);
      const [totals] = await values(admin, 'Email', {
        select: [
          'COUNT(*) AS n',
          'MIN(id) AS low',
          'MAX(is_primary) AS any_primary',
          'SUM(location_type_id) AS types',
          'AVG(location_type_id) AS mean',
        ],
        where: [['contact_id.last_name', '=', 'Joiner']],
      });
      const lowest = Math.min(
        ...(await values(admin, 'Email', { select: ['id'], where: [['contact_id', '=', ids.Ann]] })).map(
          (row) => row.id as number,
        ),
      );
      expect(totals).to.deep.equal({ n: 3, low: lowest, any_primary: true, types: 5, mean: 5 / 3 });
    });

    it('refuses unknown functions, sums of text, having on what is not selected, bad groupBy (400)', async () => {
      const bad = [
        { select: ['FROB(id) AS x'] },
        { select: ['SUM(display_name) AS x'] },
        { select: ['AVG(*) AS x'] },
        { select: ['COUNT(id) AS n'], having: [['display_name', '=', 'x']] },
        { select: ['id'], groupBy: ['nope'] },
        { select: ['id'], groupBy: 'contact_type' },
        { select: ['COUNT(id); drop table crm_contact AS n'] },
      ];
      for (const params of bad) {
        const res = await get(admin, 'Contact', params);
        expect(res.status, JSON.stringify(params)).to.equal(400);
      }
    });
  });
});
