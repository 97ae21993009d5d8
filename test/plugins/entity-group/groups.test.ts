/** entity-group over HTTP: Group, GroupContact, GroupNesting, GroupOrganization through APIv3 and APIv4. */
import { expect } from 'chai';
import { bearer, bootApi4, PLUGINS, type Api4Kernel, type User } from '../api4/helpers';

describe('entity-group over HTTP', () => {
  let k: Api4Kernel;
  let admin: User;
  let reader: User;
  let ann: number;
  let bob: number;
  let org: number;

  const v4 = (u: User, path: string, params: unknown) =>
    k
      .req()
      .post(`/crm/ajax/api4/${path}`)
      .set(bearer(u.key))
      .type('form')
      .send({ params: JSON.stringify(params) });
  const v3 = async (u: User, entity: string, action: string, params: Record<string, unknown> = {}) =>
    (
      await k
        .req()
        .post('/crm/ajax/rest')
        .set(bearer(u.key))
        .type('form')
        .send({ entity, action, json: JSON.stringify(params) })
    ).body;

  before(async () => {
    k = await bootApi4({ plugins: [...PLUGINS, 'format-json', 'rest-api3', 'entity-group'] });
    admin = await k.user('boss', ['*']);
    reader = await k.user('reader', ['access CRM']);
    const person = async (first: string) =>
      (await v3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: first, last_name: 'Group' })).id;
    ann = await person('Ann');
    bob = await person('Bob');
    org = (await v3(admin, 'Contact', 'create', { contact_type: 'Organization', organization_name: 'Acme' })).id;
  });
  after(async () => k?.t.close());

  describe('Group', () => {
    it('APIv3 create fills name and frontend_title from the title; get by filter; update; delete', async () => {
      const r = await v3(admin, 'Group', 'create', { title: 'Volunteers', description: 'People who help' });
      expect(r.is_error, JSON.stringify(r)).to.equal(0);
      const g = r.values[r.id];
      expect(g).to.include({ title: 'Volunteers', name: 'Volunteers', frontend_title: 'Volunteers', is_active: '1' });
      expect(g.visibility).to.equal('User and User Admin Only');
      const got = await v3(admin, 'Group', 'get', { title: 'Volunteers' });
      expect(got.count).to.equal(1);
      const up = await v3(admin, 'Group', 'create', { id: r.id, description: 'Helpers', visibility: 'Public Pages' });
      expect(up.values[r.id]).to.include({ description: 'Helpers', visibility: 'Public Pages' });
      expect((await v3(admin, 'Group', 'delete', { id: r.id })).is_error).to.equal(0);
      expect((await v3(admin, 'Group', 'get', { id: r.id })).count).to.equal(0);
    });

    it('group_type as an integer or an array (4.7.11), stored separator-bookended', async () => {
      const one = await v3(admin, 'Group', 'create', { title: 'Access list', group_type: 1 });
      expect(one.is_error, JSON.stringify(one)).to.equal(0);
      expect(one.values[one.id].group_type).to.deep.equal(['1']);
      const two = await v3(admin, 'Group', 'create', { title: 'Both kinds', group_type: [1, 2] });
      expect(two.values[two.id].group_type).to.deep.equal(['1', '2']);
      const stored = await k.t.kernel.db('crm_group').where({ id: two.id }).first('group_type');
      expect(stored.group_type).to.equal('\x011\x012\x01');
      const byLabel = await v4(admin, 'Group/get', {
        where: [['id', '=', two.id]],
        select: ['group_type:label'],
      });
      expect(byLabel.body.values[0]['group_type:label']).to.deep.equal(['Access Control', 'Mailing List']);
    });

    it('APIv4 create, get with a join, update, delete; getfields lists the reference fields', async () => {
      const made = await v4(admin, 'Group/create', { values: { title: 'Board', created_id: ann } });
      expect(made.status, made.text).to.equal(200);
      const id = made.body.values[0].id;
      const got = await v4(admin, 'Group/get', {
        select: ['id', 'name', 'created_id.display_name'],
        where: [['created_id.first_name', '=', 'Ann']],
      });
      expect(got.body.values).to.deep.equal([{ id, name: 'Board', 'created_id.display_name': 'Ann Group' }]);
      await v4(admin, 'Group/update', { where: [['id', '=', id]], values: { is_hidden: true } });
      const hidden = await v4(admin, 'Group/get', { where: [['id', '=', id]], select: ['is_hidden'] });
      expect(hidden.body.values[0].is_hidden).to.equal(true);
      expect((await v4(admin, 'Group/delete', { where: [['id', '=', id]] })).status).to.equal(200);
      const fields = await v4(admin, 'Group/getFields', { select: ['name'] });
      const names = fields.body.values.map((f: { name: string }) => f.name);
      expect(names).to.include.members(['name', 'title', 'saved_search_id', 'group_type', 'parents', 'children']);
      const v3fields = await v3(admin, 'Group', 'getfields', { api_action: 'create' });
      expect(v3fields.values.title['api.required']).to.equal(1);
    });

    it('needs edit groups to write; access CRM reads', async () => {
      const refused = await v3(reader, 'Group', 'create', { title: 'Not allowed' });
      expect(refused.is_error).to.equal(1);
      expect((await v4(reader, 'Group/create', { values: { title: 'Nope' } })).status).to.equal(403);
      expect((await v3(reader, 'Group', 'get', {})).is_error).to.equal(0);
    });
  });

  describe('GroupContact', () => {
    let staff: number;
    let board: number;
    before(async () => {
      staff = (await v3(admin, 'Group', 'create', { title: 'Staff' })).id;
      board = (await v3(admin, 'Group', 'create', { title: 'Directors' })).id;
    });

    it('GroupContact create takes arrays of contact_id (4.7.0) and answers added / not_added / total_count', async () => {
      const r = await v3(admin, 'GroupContact', 'create', { group_id: staff, contact_id: [ann, bob] });
      expect(r, JSON.stringify(r)).to.include({ is_error: 0, added: 2, not_added: 0, total_count: 2 });
      const again = await v3(admin, 'GroupContact', 'create', { group_id: staff, contact_id: ann });
      expect(again).to.include({ added: 0, not_added: 1, total_count: 1 });
    });

    it('GroupContact create takes arrays of group_id and the deprecated contact_id.1 style (4.7.0)', async () => {
      const r = await v3(admin, 'GroupContact', 'create', { group_id: [board], contact_id: ann, 'contact_id.1': org });
      expect(r).to.include({ added: 2, total_count: 2 });
      const missing = await v3(admin, 'GroupContact', 'create', { contact_id: ann });
      expect(missing.is_error).to.equal(1);
    });

    it('get defaults to status Added; delete sets Removed, skip_undelete deletes', async () => {
      const pending = await v3(admin, 'GroupContact', 'create', {
        group_id: board,
        contact_id: bob,
        status: 'Pending',
      });
      expect(pending).to.include({ added: 1 });
      const added = await v3(admin, 'GroupContact', 'get', { group_id: board });
      expect(Object.values(added.values).map((v: any) => Number(v.contact_id))).to.have.members([ann, org]);
      const all = await v3(admin, 'GroupContact', 'get', { group_id: board, status: 'Pending' });
      expect(all.count).to.equal(1);
      const del = await v3(admin, 'GroupContact', 'delete', { group_id: board, contact_id: org });
      expect(del, JSON.stringify(del)).to.include({ is_error: 0, removed: 1 });
      const removed = await v3(admin, 'GroupContact', 'get', { group_id: board, status: 'Removed' });
      expect(removed.count).to.equal(1);
      const gone = await v3(admin, 'GroupContact', 'delete', { group_id: board, contact_id: org, skip_undelete: 1 });
      expect(gone).to.include({ removed: 1 });
      expect(await k.t.kernel.db('crm_group_contact').where({ group_id: board, contact_id: org })).to.have.length(0);
      expect((await v3(admin, 'GroupContact', 'delete', { group_id: board, contact_id: org })).is_error).to.equal(1);
    });

    it('APIv4: create, get (no default status) with a join, update, delete, getFields', async () => {
      const made = await v4(admin, 'GroupContact/create', {
        values: { group_id: board, contact_id: org, status: 'Removed' },
      });
      expect(made.status, made.text).to.equal(200);
      const id = made.body.values[0].id;
      const got = await v4(admin, 'GroupContact/get', {
        select: ['id', 'status', 'group_id:label', 'contact_id.display_name'],
        where: [
          ['group_id.name', '=', 'Directors'],
          ['contact_id', '=', org],
        ],
      });
      expect(got.body.values).to.deep.equal([
        { id, status: 'Removed', 'group_id:label': 'Directors', 'contact_id.display_name': 'Acme' },
      ]);
      await v4(admin, 'GroupContact/update', { where: [['id', '=', id]], values: { status: 'Added' } });
      const fields = await v4(admin, 'GroupContact/getFields', { select: ['name'] });
      expect(fields.body.values.map((f: { name: string }) => f.name)).to.include.members(['status', 'email_id']);
      expect((await v4(admin, 'GroupContact/delete', { where: [['id', '=', id]] })).status).to.equal(200);
    });

    it('writing memberships needs edit all contacts', async () => {
      const r = await v3(reader, 'GroupContact', 'create', { group_id: staff, contact_id: ann });
      expect(r.is_error).to.equal(1);
      expect(
        (await v4(reader, 'GroupContact/create', { values: { group_id: staff, contact_id: ann } })).status,
      ).to.equal(403);
    });

    it('Contact.get filters by group: an id, a list, {IN: …}, a name, legacy filter_group_id (APIv3)', async () => {
      const ids = async (group: unknown) =>
        Object.keys((await v3(admin, 'Contact', 'get', { group, return: ['id'] })).values).map(Number);
      expect(await ids(staff)).to.have.members([ann, bob]);
      expect(await ids([board])).to.have.members([ann]);
      expect(await ids({ IN: [staff, board] })).to.have.members([ann, bob]);
      expect(await ids('Directors')).to.have.members([ann]);
      const legacy = await v3(admin, 'Contact', 'get', { filter_group_id: board, return: ['id'] });
      expect(Object.keys(legacy.values).map(Number)).to.have.members([ann]);
    });
  });

  describe('smart groups', () => {
    it('a group with a saved search has the contacts its criteria match, resolved at query time', async () => {
      const search = await v4(admin, 'SavedSearch/create', {
        values: {
          name: 'bees',
          label: 'B names',
          api_entity: 'Contact',
          api_params: { where: [['first_name', 'LIKE', 'B%']] },
        },
      });
      expect(search.status, search.text).to.equal(200);
      const smart = (
        await v3(admin, 'Group', 'create', { title: 'B people', saved_search_id: search.body.values[0].id })
      ).id;
      const ids = async (group: unknown) =>
        Object.keys((await v3(admin, 'Contact', 'get', { group, return: ['id'] })).values).map(Number);
      expect(await ids(smart)).to.have.members([bob]);
      const cat = (
        await v3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Bea', last_name: 'Cat' })
      ).id;
      expect(await ids('B people')).to.have.members([bob, cat]);
      // A contact Removed from a smart group is out; one Added by hand is in.
      await v3(admin, 'GroupContact', 'create', { group_id: smart, contact_id: cat, status: 'Removed' });
      await v3(admin, 'GroupContact', 'create', { group_id: smart, contact_id: ann });
      expect(await ids({ IN: [smart] })).to.have.members([bob, ann]);
      // APIv4's `groups` filter counts the same members; its negation the others.
      const v4ids = async (where: unknown[]) =>
        (await v4(admin, 'Contact/get', { select: ['id'], where })).body.values.map((row: { id: number }) => row.id);
      expect(await v4ids([['groups', 'IN', [smart]]])).to.have.members([bob, ann]);
      expect(await v4ids([['groups', 'CONTAINS', smart]])).to.have.members([bob, ann]);
      const outside = await v4ids([['groups', 'NOT IN', [smart]]]);
      expect(outside).to.include(cat).and.not.include(bob).and.not.include(ann);
      // Changing the criteria changes the members at once.
      await v4(admin, 'SavedSearch/update', {
        where: [['id', '=', search.body.values[0].id]],
        values: { api_params: { where: [['last_name', '=', 'Cat']] } },
      });
      expect(await ids(smart)).to.have.members([ann]);
    });

    it('a saved search whose criteria name an unknown field is refused', async () => {
      const bad = await v4(admin, 'SavedSearch/create', {
        values: { name: 'bad', api_params: { where: [['no_such_field', '=', 1]] } },
      });
      expect(bad.status).to.equal(400);
      expect(bad.text).to.match(/no_such_field/);
    });
  });

  describe('GroupNesting and GroupOrganization', () => {
    it('nesting keeps parents / children in step; APIv3 and APIv4 get, delete', async () => {
      const parent = (await v3(admin, 'Group', 'create', { title: 'Parent' })).id;
      const child = (await v3(admin, 'Group', 'create', { title: 'Child' })).id;
      const nest = await v3(admin, 'GroupNesting', 'create', { parent_group_id: parent, child_group_id: child });
      expect(nest.is_error, JSON.stringify(nest)).to.equal(0);
      const lists = await v4(admin, 'Group/get', {
        where: [['id', 'IN', [parent, child]]],
        select: ['id', 'parents', 'children'],
      });
      expect(lists.body.values).to.deep.equal([
        { id: parent, parents: null, children: [String(child)] },
        { id: child, parents: [String(parent)], children: null },
      ]);
      const got = await v4(admin, 'GroupNesting/get', { where: [['parent_group_id.title', '=', 'Parent']] });
      expect(got.body.values).to.have.length(1);
      expect((await v3(admin, 'GroupNesting', 'delete', { id: nest.id })).is_error).to.equal(0);
      const after = await v3(admin, 'Group', 'getsingle', { id: child, return: ['parents'] });
      expect(after.parents ?? '').to.be.oneOf(['', undefined]);
    });

    it('GroupOrganization links a group to an organization', async () => {
      const g = (await v3(admin, 'Group', 'create', { title: 'Acme staff' })).id;
      const r = await v3(admin, 'GroupOrganization', 'create', { group_id: g, organization_id: org });
      expect(r.is_error, JSON.stringify(r)).to.equal(0);
      const got = await v4(admin, 'GroupOrganization/get', {
        select: ['organization_id.display_name'],
        where: [['group_id', '=', g]],
      });
      expect(got.body.values[0]['organization_id.display_name']).to.equal('Acme');
      expect(
        (await v4(reader, 'GroupOrganization/create', { values: { group_id: g, organization_id: org } })).status,
      ).to.equal(403);
    });
  });
});
