/** Note through APIv3 and APIv4 over HTTP: defaults, notes on notes, privacy, permissions and row access. */
import { expect } from 'chai';
import { bootCrm, type Crm, type Headers } from '../entity-tag/http';

describe('entity-note: Note over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let adminContact: number;
  let ann: number;
  let bob: number;
  let annNote: number;

  before(async () => {
    crm = await bootCrm();
    const root = await crm.userWith('root', ['*']);
    admin = root.headers;
    adminContact = root.contactId;
    const contact = async (first: string) =>
      Number(
        (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: first } }))
          .values[0].id,
      );
    ann = await contact('Ann');
    bob = await contact('Bob');
  });
  after(() => crm?.t.close());

  it('APIv3 create: entity_table defaults to civicrm_contact, the author to the caller, privacy to 0', async () => {
    const created = await crm.api3(admin, 'Note', 'create', {
      entity_id: ann,
      note: 'Met at the fair',
      subject: 'Fair',
    });
    expect(created, JSON.stringify(created)).to.include({ is_error: 0, count: 1 });
    annNote = Number(created.id);
    const row = created.values[String(annNote)];
    expect(row).to.include({
      entity_table: 'civicrm_contact',
      entity_id: String(ann),
      contact_id: String(adminContact),
      privacy: '0',
      subject: 'Fair',
    });
    expect(row.created_date).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(row.modified_date).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('APIv3 create needs entity_id and note; an unknown record is refused', async () => {
    const missing = await crm.api3(admin, 'Note', 'create', { subject: 'x' });
    expect(missing).to.include({ is_error: 1 });
    expect(String(missing.error_message)).to.match(/entity_id/);
    const nowhere = await crm.api3(admin, 'Note', 'create', { entity_id: 999999, note: 'x' });
    expect(nowhere).to.include({ is_error: 1, error_message: 'Contact id 999999 not found (entity_id)' });
  });

  it('APIv3 get with a filter and a join on the author; chained from a contact', async () => {
    const got = await crm.api3(admin, 'Note', 'get', { entity_id: ann, return: ['note', 'contact_id.display_name'] });
    expect(got.count).to.equal(1);
    expect(got.values[String(annNote)]).to.include({ note: 'Met at the fair' });
    expect(got.values[String(annNote)]['contact_id.display_name']).to.be.a('string');
    const chained = await crm.api3(admin, 'Contact', 'get', { id: bob, 'api.Note.create': { note: 'Chained' } });
    expect(chained.values[String(bob)]['api.Note.create']).to.include({ is_error: 0, count: 1 });
  });

  it('notes on notes (entity_table civicrm_note); deleting a note deletes its comments', async () => {
    const comment = await crm.api4(admin, 'Note', 'create', {
      values: { entity_table: 'civicrm_note', entity_id: annNote, note: 'A comment' },
    });
    expect(comment.values[0]).to.include({ entity_table: 'civicrm_note', entity_id: annNote });
    const reply = await crm.api4(admin, 'Note', 'create', {
      values: { entity_table: 'civicrm_note', entity_id: comment.values[0].id, note: 'A reply' },
    });
    const temp = Number((await crm.api3(admin, 'Note', 'create', { entity_id: ann, note: 'Temporary' })).id);
    await crm.api4(admin, 'Note', 'create', {
      values: { entity_table: 'civicrm_note', entity_id: temp, note: 'On temp' },
    });
    expect(await crm.api3(admin, 'Note', 'delete', { id: temp })).to.include({ is_error: 0 });
    const left = await crm.api4(admin, 'Note', 'get', {
      select: ['id'],
      where: [['entity_table', '=', 'civicrm_note']],
      orderBy: { id: 'ASC' },
    });
    expect(left.values.map((row) => row.id)).to.deep.equal([comment.values[0].id, reply.values[0].id]);
  });

  it('APIv3 Note.get filters entity_table = civicrm_contact unless told otherwise; APIv4 has no such default', async () => {
    const v3 = await crm.api3(admin, 'Note', 'get', { options: { limit: 0 } });
    const tables = new Set(Object.values(v3.values).map((row) => row.entity_table));
    expect([...tables]).to.deep.equal(['civicrm_contact']);
    const comments = await crm.api3(admin, 'Note', 'get', { entity_table: 'civicrm_note' });
    expect(comments.count).to.equal(2);
    const v4 = await crm.api4(admin, 'Note', 'get', { select: ['entity_table'], limit: 0 });
    expect(new Set(v4.values.map((row) => row.entity_table)).size).to.equal(2);
    const spec = await crm.api3(admin, 'Note', 'getfields', { action: 'get' });
    expect(spec.values.entity_table).to.include({ 'api.default': 'civicrm_contact' });
  });

  it('APIv4 create, get with a join, update and delete; getfields', async () => {
    const made = await crm.api4(admin, 'Note', 'create', {
      values: { entity_id: bob, note: 'Called', 'privacy:name': 'Author Only' },
    });
    expect(made.values[0]).to.include({ entity_table: 'civicrm_contact', privacy: '1', contact_id: adminContact });
    const got = await crm.api4(admin, 'Note', 'get', {
      select: ['note', 'contact_id.first_name', 'privacy:label'],
      where: [['id', '=', made.values[0].id]],
    });
    expect(got.values[0]).to.include({ note: 'Called', 'privacy:label': 'Author Only' });
    const updated = await crm.api4(admin, 'Note', 'update', {
      where: [['id', '=', made.values[0].id]],
      values: { note: 'Called twice' },
    });
    expect(updated.values[0]).to.include({ note: 'Called twice' });
    const removed = await crm.api4(admin, 'Note', 'delete', { where: [['id', '=', made.values[0].id]] });
    expect(removed.values).to.have.length(1);
    const fields = await crm.api3(admin, 'Note', 'getfields', { action: 'create' });
    expect(fields.values.entity_table).to.include({ 'api.default': 'civicrm_contact' });
    expect(fields.values.note).to.include({ 'api.required': 1 });
    const v4 = await crm.api4(admin, 'Note', 'getFields', { where: [['name', '=', 'contact_id']] });
    expect(v4.values[0]).to.include({ fk_entity: 'Contact' });
  });

  it('a contact-limited user sees only the notes (and comments) of contacts it may see, and writes only on them', async () => {
    const self = await crm.userWith('self-only', ['access CRM', 'view my contact', 'edit my contact']);
    const own = await crm.api3(self.headers, 'Note', 'create', { entity_id: self.contactId, note: 'Mine' });
    expect(own, JSON.stringify(own)).to.include({ is_error: 0 });
    const v3 = await crm.api3(self.headers, 'Note', 'get', {});
    expect(Object.values(v3.values).map((row) => row.note)).to.deep.equal(['Mine']);
    const v4 = await crm.api4(self.headers, 'Note', 'get', { select: ['note'] });
    expect(v4.values.map((row) => row.note)).to.deep.equal(['Mine']);
    const reply = await crm.api4(self.headers, 'Note', 'create', {
      values: { entity_table: 'civicrm_note', entity_id: own.id, note: 'My comment' },
    });
    expect(reply.values[0], JSON.stringify(reply)).to.include({ note: 'My comment' });
    // Comments on Ann's note exist (created above) but follow Ann's note: hidden.
    const comments = await crm.api4(self.headers, 'Note', 'get', {
      select: ['note'],
      where: [['entity_table', '=', 'civicrm_note']],
    });
    expect(comments.values.map((row) => row.note)).to.deep.equal(['My comment']);
    const onAnn = await crm.api4(self.headers, 'Note', 'create', {
      values: { entity_table: 'civicrm_note', entity_id: annNote, note: 'Sneaky' },
    });
    expect(onAnn.error_message).to.match(/ACL check failed|Permission denied/);
    const other = await crm.api3(self.headers, 'Note', 'create', { entity_id: ann, note: 'Not mine' });
    expect(other).to.include({ is_error: 1, error_message: 'Permission denied to modify contact record' });
    const edit = await crm.api4(self.headers, 'Note', 'update', {
      where: [['id', '=', annNote]],
      values: { note: 'Changed' },
    });
    expect(edit.values ?? []).to.deep.equal([]);
  });

  it('an Author Only note is read by its author, or with view all notes', async () => {
    const viewer = await crm.userWith('viewer', ['access CRM', 'view all contacts']);
    await crm.api3(admin, 'Note', 'create', { entity_id: ann, note: 'Secret', privacy: 1 });
    const seen = await crm.api4(viewer.headers, 'Note', 'get', { where: [['entity_id', '=', ann]], select: ['note'] });
    expect(seen.values.map((row) => row.note)).to.not.include('Secret');
    const reader = await crm.userWith('reader', ['access CRM', 'view all contacts', 'view all notes']);
    const all = await crm.api4(reader.headers, 'Note', 'get', { where: [['entity_id', '=', ann]], select: ['note'] });
    expect(all.values.map((row) => row.note)).to.include('Secret');
  });

  it('a contact moved to the trash keeps its notes; deleted for good, its notes (and their comments) go', async () => {
    const carl = Number(
      (await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Carl' })).id,
    );
    const note = Number((await crm.api3(admin, 'Note', 'create', { entity_id: carl, note: 'About Carl' })).id);
    await crm.api4(admin, 'Note', 'create', { values: { entity_table: 'civicrm_note', entity_id: note, note: 'Re' } });
    expect(await crm.api3(admin, 'Contact', 'delete', { id: carl })).to.include({ is_error: 0 });
    expect((await crm.api4(admin, 'Note', 'get', { where: [['id', '=', note]] })).values).to.have.length(1);
    expect(await crm.api3(admin, 'Contact', 'delete', { id: carl, skip_undelete: 1 })).to.include({ is_error: 0 });
    const left = await crm.api4(admin, 'Note', 'get', {
      where: [
        [
          'OR',
          [
            ['id', '=', note],
            ['entity_id', '=', note],
          ],
        ],
      ],
    });
    expect(left.values).to.deep.equal([]);
  });

  it('permissions (§6.2): Note needs no API permission, only row access; anonymous callers see nothing', async () => {
    const plain = await crm.userWith('plain', []);
    const got = await crm.api3(plain.headers, 'Note', 'get', {});
    expect(got).to.include({ is_error: 0, count: 0 });
    const write = await crm.api3(plain.headers, 'Note', 'create', { entity_id: ann, note: 'x' });
    expect(write).to.include({ is_error: 1, error_message: 'Permission denied to modify contact record' });
  });
});
