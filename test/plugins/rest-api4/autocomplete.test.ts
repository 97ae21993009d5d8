/** APIv4 `autocomplete` over HTTP: what the reference's entity-reference widgets send and read. */
import { expect } from 'chai';
import { bearer, bootApi4, type Api4Kernel, type User } from '../api4/helpers';

describe('rest-api4: autocomplete', () => {
  let k: Api4Kernel;
  let admin: User;
  const ids: Record<string, number> = {};
  const call = (u: User, entity: string, params: unknown, method: 'get' | 'post' = 'get') => {
    const req = k.req()[method](`/crm/ajax/api4/${entity}/autocomplete`).set(bearer(u.key));
    return method === 'get'
      ? req.query({ params: JSON.stringify(params) })
      : req.type('form').send({ params: JSON.stringify(params) });
  };

  before(async () => {
    k = await bootApi4();
    admin = await k.user('boss', ['*']);
    const people = [
      ['Ann', 'Archer'],
      ['Anna', 'Zed'],
      ['Bob', 'Baker'],
      ['Joanne', 'Hart'],
      ['Percy', '100%_Sure'],
    ];
    for (const [first, last] of people) {
      const values = { contact_type: 'Individual', first_name: first, last_name: last };
      ids[first] = (await k.call('Contact', 'create', { values })).values[0].id as number;
    }
    await k.call('Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Annika', is_deleted: true },
    });
    for (let i = 0; i < 20; i++)
      await k.call('Contact', 'create', { values: { contact_type: 'Organization', organization_name: `Org ${i}` } });
  });
  after(async () => k?.t.close());

  it('finds records whose search field contains the input, labelled by title, in label order, over GET', async () => {
    const res = await call(admin, 'Contact', { input: 'ann' });
    expect(res.status).to.equal(200);
    expect(res.body.values).to.deep.equal([
      { id: ids.Ann, label: 'Ann Archer', description: [] },
      { id: ids.Anna, label: 'Anna Zed', description: [] },
      { id: ids.Joanne, label: 'Joanne Hart', description: [] },
    ]);
    expect(res.body).to.include({ entity: 'Contact', action: 'autocomplete', countMatched: 3 });
  });

  it('leaves out trashed contacts and treats % and _ as plain characters', async () => {
    const annika = await call(admin, 'Contact', { input: 'annika' });
    expect(annika.body.values).to.deep.equal([]);
    const percent = await call(admin, 'Contact', { input: '100%_' }, 'post');
    expect(percent.body.values.map((row: { id: number }) => row.id)).to.deep.equal([ids.Percy]);
    const literal = await call(admin, 'Contact', { input: '0%S' });
    expect(literal.body.values).to.deep.equal([]);
  });

  it('pages 15 at a time with countMatched telling whether there is more', async () => {
    const first = await call(admin, 'Contact', { input: 'Org' });
    expect(first.body.values).to.have.length(15);
    expect(first.body.countMatched).to.equal(20);
    const second = await call(admin, 'Contact', { input: 'Org', page: 2 });
    expect(second.body.values).to.have.length(5);
    const labels = [...first.body.values, ...second.body.values].map((row: { label: string }) => row.label);
    expect(new Set(labels).size).to.equal(20);
  });

  it('looks a typed number up as an id, and ids fetch chosen records unpaged', async () => {
    const byId = await call(admin, 'Contact', { input: String(ids.Bob) });
    expect(byId.body.values.map((row: { id: number }) => row.id)).to.include(ids.Bob);
    const chosen = await call(admin, 'Contact', { ids: [ids.Bob, ids.Ann] });
    expect(chosen.body.values.map((row: { label: string }) => row.label)).to.deep.equal(['Ann Archer', 'Bob Baker']);
  });

  it('takes searchField, key and filters from metadata only', async () => {
    const byLast = await call(admin, 'Contact', { input: 'zed', searchField: 'last_name' });
    expect(byLast.body.values.map((row: { id: number }) => row.id)).to.deep.equal([ids.Anna]);
    const filtered = await call(admin, 'Contact', { input: 'a', filters: { contact_type: 'Organization' } });
    expect(filtered.body.countMatched).to.equal(0);
    const keyed = await call(admin, 'Contact', { input: 'Bob', key: 'first_name' });
    expect(keyed.body.values).to.deep.equal([{ id: 'Bob', label: 'Bob Baker', description: [] }]);
    for (const bad of [{ searchField: 'nope' }, { key: 'x; drop table' }, { filters: { nope: 1 } }, { page: 0 }]) {
      const res = await call(admin, 'Contact', { input: 'a', ...bad });
      expect(res.status, JSON.stringify(bad)).to.equal(400);
      expect(res.body.error_message).to.be.a('string');
    }
  });

  it('needs the get permission, and follows row access', async () => {
    const nobody = await k.user('nobody', []);
    const refused = await call(nobody, 'LocationType', { input: 'Home' });
    expect(refused.status).to.equal(403);
    expect(refused.body.error_message).to.equal('Authorization failed: CRM APIv4 (LocationType::autocomplete)');
    expect((await call(admin, 'LocationType', { input: 'Home' })).body.values).to.have.length(1);
    const res = await call(nobody, 'Contact', { input: '' });
    expect(res.status).to.equal(200);
    expect(res.body.values.map((row: { id: number }) => row.id)).to.deep.equal([nobody.contactId]);
  });
});
