/** Tag and EntityTag through APIv3 and APIv4 over HTTP: fields, tag sets, used_for, counts, permissions, row access. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers } from './http';

describe('entity-tag: Tag and EntityTag over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let ann: number;
  let bob: number;
  let donor: number;

  before(async () => {
    crm = await bootCrm();
    admin = (await crm.userWith('root', ['*'])).headers;
    const contact = async (first: string) =>
      Number(
        (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: first } }))
          .values[0].id,
      );
    ann = await contact('Ann');
    bob = await contact('Bob');
  });
  after(() => crm?.t.close());

  describe('Tag', () => {
    it('APIv3 create: used_for defaults to civicrm_contact, label to name; get with a filter', async () => {
      const created = await crm.api3(admin, 'Tag', 'create', { name: 'Major Donor', description: 'Gives a lot' });
      expect(created, JSON.stringify(created)).to.include({ is_error: 0, count: 1 });
      donor = Number(created.id);
      const got = await crm.api3(admin, 'Tag', 'get', { name: 'Major Donor' });
      expect(got.count).to.equal(1);
      expect(got.values[String(donor)]).to.include({ name: 'Major Donor', label: 'Major Donor', is_tagset: '0' });
      expect(got.values[String(donor)].used_for).to.deep.equal(['civicrm_contact']);
    });
    it('APIv3 create needs name; the name is unique', async () => {
      const missing = await crm.api3(admin, 'Tag', 'create', { description: 'x' });
      expect(missing).to.include({ is_error: 1 });
      expect(String(missing.error_message)).to.match(/name/);
      const twice = await crm.api3(admin, 'Tag', 'create', { name: 'Major Donor' });
      expect(twice).to.include({ is_error: 1 });
    });
    it('APIv4 create a tag set and a child tag; get joins the parent; update; delete', async () => {
      const set = await crm.api4(admin, 'Tag', 'create', {
        values: { name: 'Skills', is_tagset: true, used_for: ['civicrm_contact', 'civicrm_activity'] },
      });
      expect(set.values[0]).to.include({ is_tagset: true, label: 'Skills' });
      const child = await crm.api4(admin, 'Tag', 'create', {
        values: { name: 'Welding', parent_id: set.values[0].id, color: '#ff0000' },
      });
      const got = await crm.api4(admin, 'Tag', 'get', {
        select: ['id', 'name', 'parent_id.name', 'used_for:label', 'color'],
        where: [['parent_id.is_tagset', '=', true]],
      });
      expect(got.values).to.deep.equal([
        {
          id: child.values[0].id,
          name: 'Welding',
          'parent_id.name': 'Skills',
          'used_for:label': ['Contacts'],
          color: '#ff0000',
        },
      ]);
      const updated = await crm.api4(admin, 'Tag', 'update', {
        where: [['id', '=', child.values[0].id]],
        values: { description: 'Metal work' },
      });
      expect(updated.values[0]).to.include({ description: 'Metal work' });
      const removed = await crm.api4(admin, 'Tag', 'delete', { where: [['id', '=', child.values[0].id]] });
      expect(removed.values).to.deep.equal([{ id: child.values[0].id }]);
    });
    it('getfields: used_for is a serialized option field; parent_id an FK to Tag', async () => {
      const v3 = await crm.api3(admin, 'Tag', 'getfields', { action: 'create' });
      expect(v3.values.used_for).to.include({ serialize: 1 });
      expect(v3.values.name).to.include({ 'api.required': 1 });
      const v4 = await crm.api4(admin, 'Tag', 'getFields', { where: [['name', '=', 'parent_id']] });
      expect(v4.values[0]).to.include({ fk_entity: 'Tag' });
    });
    it('permissions (§6.2): access CRM creates and updates tags; deleting needs administer CRM', async () => {
      const clerk = (await crm.userWith('tag-clerk', ['access CRM'])).headers;
      const made = await crm.api3(clerk, 'Tag', 'create', { name: 'Volunteer' });
      expect(made).to.include({ is_error: 0 });
      const refused = await crm.api3(clerk, 'Tag', 'delete', { id: made.id });
      expect(refused).to.include({ is_error: 1 });
      expect(String(refused.error_message)).to.match(/administer CRM/);
      const nobody = (await crm.userWith('no-access', [])).headers;
      expect(await crm.api3(nobody, 'Tag', 'get', {})).to.include({ is_error: 1 });
    });
  });

  describe('EntityTag', () => {
    it('APIv3 create with lists of contact_id and tag_id answers added, not_added, total_count', async () => {
      const vip = Number((await crm.api3(admin, 'Tag', 'create', { name: 'VIP' })).id);
      const first = await crm.api3(admin, 'EntityTag', 'create', { contact_id: [ann, bob], tag_id: donor });
      expect(first).to.deep.equal({ is_error: 0, total_count: 2, added: 2, not_added: 0 });
      const again = await crm.api3(admin, 'EntityTag', 'create', { contact_id: ann, tag_id: [donor, 'VIP'] });
      expect(again).to.deep.equal({ is_error: 0, total_count: 2, added: 1, not_added: 1 });
      const nothing = await crm.api3(admin, 'EntityTag', 'create', { contact_id: ann, tag_id: vip });
      expect(nothing).to.include({ is_error: 1, error_message: 'Unable to add tags', added: 0, not_added: 1 });
      const noContact = await crm.api3(admin, 'EntityTag', 'create', { tag_id: vip });
      expect(noContact).to.include({ is_error: 1, error_message: 'contact_id is a required field' });
    });
    it('EntityTag.get is indexed by the EntityTag id, not tag_id (4.7.13); joins the tag', async () => {
      const got = await crm.api3(admin, 'EntityTag', 'get', { entity_id: ann, return: ['tag_id', 'tag_id.name'] });
      expect(got.count).to.equal(2);
      for (const [key, row] of Object.entries(got.values)) expect(row.id).to.equal(key);
      const names = Object.values(got.values).map((row) => row['tag_id.name']);
      expect(names.sort()).to.deep.equal(['Major Donor', 'VIP']);
      const v4 = await crm.api4(admin, 'EntityTag', 'get', {
        select: ['entity_id', 'tag_id:label'],
        where: [['tag_id.name', '=', 'Major Donor']],
        orderBy: { entity_id: 'ASC' },
      });
      expect(v4.values.map((row) => row.entity_id)).to.deep.equal([ann, bob]);
      expect(v4.values[0]['tag_id:label']).to.equal('Major Donor');
    });
    it('Contact.get filters by tag: an id, a name, a list, {IN: …} (APIv3)', async () => {
      const ids = async (tag: unknown) =>
        Object.keys((await crm.api3(admin, 'Contact', 'get', { tag, return: ['id'] })).values)
          .map(Number)
          .sort((a, b) => a - b);
      expect(await ids(donor)).to.deep.equal([ann, bob]);
      expect(await ids('VIP')).to.deep.equal([ann]);
      expect(await ids([donor, 'VIP'])).to.deep.equal([ann, bob]);
      expect(await ids({ IN: ['VIP'] })).to.deep.equal([ann]);
      expect(await ids(`${donor},VIP`)).to.deep.equal([ann, bob]);
      expect(await ids('No such tag')).to.deep.equal([]);
    });
    it('a tag is used only where its used_for allows, and a tag set is never attached', async () => {
      const activities = await crm.api4(admin, 'Tag', 'create', {
        values: { name: 'Urgent', used_for: ['civicrm_activity'] },
      });
      const refused = await crm.api4(admin, 'EntityTag', 'create', {
        values: { entity_table: 'civicrm_contact', entity_id: ann, tag_id: activities.values[0].id },
      });
      expect(refused.error_message).to.equal('Tag "Urgent" is not used for civicrm_contact');
      const set = await crm.api4(admin, 'Tag', 'get', { where: [['name', '=', 'Skills']] });
      const tagset = await crm.api3(admin, 'EntityTag', 'create', { contact_id: ann, tag_id: set.values[0].id });
      expect(tagset).to.include({ is_error: 1 });
    });
    it('APIv4 create, update and delete; getfields shows the dynamic reference', async () => {
      const tag = Number((await crm.api4(admin, 'Tag', 'create', { values: { name: 'Board' } })).values[0].id);
      const made = await crm.api4(admin, 'EntityTag', 'create', { values: { entity_id: bob, tag_id: tag } });
      expect(made.values[0]).to.include({ entity_table: 'civicrm_contact', entity_id: bob, tag_id: tag });
      const moved = await crm.api4(admin, 'EntityTag', 'update', {
        where: [['id', '=', made.values[0].id]],
        values: { entity_id: ann },
      });
      expect(moved.values[0]).to.include({ entity_id: ann });
      const gone = await crm.api4(admin, 'EntityTag', 'delete', { where: [['id', '=', made.values[0].id]] });
      expect(gone.values).to.have.length(1);
      const fields = await crm.api3(admin, 'EntityTag', 'getfields', { action: 'create' });
      expect(fields.values.entity_table).to.include({ 'api.default': 'civicrm_contact' });
      expect(fields.values.entity_id['api.aliases']).to.deep.equal(['contact_id']);
    });
    it('APIv3 delete answers removed, not_removed, total_count; without tag_id it removes every tag', async () => {
      const one = await crm.api3(admin, 'EntityTag', 'delete', { contact_id: [ann, bob], tag_id: 'VIP' });
      expect(one).to.deep.equal({ is_error: 0, total_count: 2, removed: 1, not_removed: 1 });
      const all = await crm.api3(admin, 'EntityTag', 'delete', { contact_id: bob });
      expect(all).to.deep.equal({ is_error: 0, total_count: 1, removed: 1, not_removed: 0 });
    });
    it('deleting a tag deletes its entity tags', async () => {
      const tag = Number((await crm.api3(admin, 'Tag', 'create', { name: 'Temporary' })).id);
      await crm.api3(admin, 'EntityTag', 'create', { contact_id: bob, tag_id: tag });
      expect(await crm.api3(admin, 'Tag', 'delete', { id: tag })).to.include({ is_error: 0 });
      const left = await crm.api4(admin, 'EntityTag', 'get', { where: [['tag_id', '=', tag]] });
      expect(left.values).to.deep.equal([]);
    });
    it('a contact deleted for good loses its entity tags; one in the trash keeps them', async () => {
      const carl = Number(
        (await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Carl' })).id,
      );
      await crm.api3(admin, 'EntityTag', 'create', { contact_id: carl, tag_id: donor });
      const tagsOf = async () =>
        (await crm.api4(admin, 'EntityTag', 'get', { where: [['entity_id', '=', carl]] })).values.length;
      await crm.api3(admin, 'Contact', 'delete', { id: carl });
      expect(await tagsOf()).to.equal(1);
      await crm.api3(admin, 'Contact', 'delete', { id: carl, skip_undelete: 1 });
      expect(await tagsOf()).to.equal(0);
    });
    it('a contact-limited user sees and writes only the tags of contacts it may see', async () => {
      const self = await crm.userWith('self-only', ['access CRM', 'view my contact', 'edit my contact']);
      await crm.api3(admin, 'EntityTag', 'create', { contact_id: self.contactId, tag_id: donor });
      const v3 = await crm.api3(self.headers, 'EntityTag', 'get', { tag_id: donor });
      expect(Object.values(v3.values).map((row) => Number(row.entity_id))).to.deep.equal([self.contactId]);
      const v4 = await crm.api4(self.headers, 'EntityTag', 'get', { where: [['tag_id', '=', donor]] });
      expect(v4.values.map((row) => row.entity_id)).to.deep.equal([self.contactId]);
      const joined = await crm.api4(self.headers, 'Tag', 'get', {
        select: ['id'],
        where: [['id', '=', donor]],
      });
      expect(joined.values).to.have.length(1);
      const other = await crm.api3(self.headers, 'EntityTag', 'create', { contact_id: bob, tag_id: donor });
      expect(other).to.include({ is_error: 1 });
      expect(String(other.error_message)).to.match(/Permission denied/);
      const count = await crm.api4(admin, 'EntityTag', 'get', {
        where: [
          ['entity_id', '=', bob],
          ['tag_id', '=', donor],
        ],
      });
      expect(count.values).to.have.length(0); // bob's donor tag was removed above and not re-added
    });
  });
});
