/**
 * 4.7.0: contact-related APIs respect fine-grained ACLs. A user with only `access CRM`, whose contact is in
 * the Staff group, holds the ACL role Staff gets; an ACL lets that role view (or edit) the Clients group.
 */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('acl: group ACLs over HTTP (4.7.0)', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let staff: Headers;
  let staffContact: number;
  let clients: number;
  let staffGroup: number;
  let alice: number;
  let outsider: number;
  let acl: number;

  const contact = async (first: string, email: string) => {
    const made = await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: first, email });
    return Number(made.id);
  };
  // Besides its own contact (every authenticated user may view it: `view my contact`), what the user sees.
  const visible = async () =>
    Object.keys((await crm.api3(staff, 'Contact', 'get', { return: ['id'], options: { limit: 0 } })).values)
      .map(Number)
      .filter((id) => id !== staffContact)
      .sort((x, y) => x - y);

  /** One more ACL: the case workers' role may view the contacts of this group (or saved search). */
  const grantView = async (objectTable: string, objectId: number) => {
    const roles = await crm.api3(admin, 'ACLEntityRole', 'get', { sequential: 1 });
    const granted = await crm.api3(admin, 'ACL', 'create', {
      name: `Case workers view ${objectTable} ${objectId}`,
      entity_id: roles.values[0].acl_role_id,
      operation: 'View',
      object_table: objectTable,
      object_id: objectId,
    });
    expect(granted.is_error, JSON.stringify(granted)).to.equal(0);
    return granted;
  };

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['acl'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    ({ headers: staff, contactId: staffContact } = await crm.userWith('staff', ['access CRM']));
    staffContact = Number(staffContact);
    clients = Number((await crm.api3(admin, 'Group', 'create', { title: 'Clients' })).id);
    staffGroup = Number((await crm.api3(admin, 'Group', 'create', { title: 'Staff' })).id);
    alice = await contact('Alice', 'alice@example.org');
    outsider = await contact('Oscar', 'oscar@example.org');
    await crm.api3(admin, 'GroupContact', 'create', { group_id: clients, contact_id: alice });
    await crm.api3(admin, 'GroupContact', 'create', { group_id: staffGroup, contact_id: staffContact });
    const role = await crm.api3(admin, 'OptionValue', 'create', {
      option_group_id: 'acl_role',
      label: 'Case workers',
      name: 'case_workers',
    });
    const roleValue = Number(role.values[role.id as string].value);
    // The reference's APIv3 names: AclRole (api/v3/AclRole.php) is the ACL entity role, Acl the ACL.
    const granted = await crm.api3(admin, 'AclRole', 'create', { acl_role_id: roleValue, entity_id: staffGroup });
    expect(granted.is_error, JSON.stringify(granted)).to.equal(0);
    const made = await crm.api3(admin, 'Acl', 'create', {
      name: 'Case workers view clients',
      entity_id: roleValue,
      operation: 'View',
      object_table: 'civicrm_group',
      object_id: clients,
    });
    expect(made.is_error, JSON.stringify(made)).to.equal(0);
    acl = Number(made.id);
    expect((await crm.api3(admin, 'acl_role', 'getcount', {})).result).to.equal(1);
    expect((await crm.api3(admin, 'ACLEntityRole', 'getcount', {})).result).to.equal(1);
  });
  after(() => crm?.t.close());

  it('get, getcount (APIv3 and APIv4) return exactly the contacts of the granted group', async () => {
    expect(await visible()).to.deep.equal([alice]);
    expect(Number((await crm.api3(staff, 'Contact', 'getcount', {})).result)).to.equal(2);
    const v4 = await crm.api4(staff, 'Contact', 'get', { select: ['id'], where: [['id', '<>', staffContact]] });
    expect(v4.values.map((row) => row.id)).to.deep.equal([alice]);
    expect(v4.values.map((row) => row.id)).to.not.include(outsider);
  });

  it('joins and chains see the same rows: Email.get with contact_id.display_name, Contact.get with api.Email.get', async () => {
    const emails = await crm.api4(staff, 'Email', 'get', { select: ['email', 'contact_id.display_name'] });
    expect(emails.values.map((row) => row.email)).to.deep.equal(['alice@example.org']);
    const chained = await crm.api3(staff, 'Contact', 'get', {
      sequential: 1,
      id: { '<>': staffContact },
      'api.Email.get': {},
    });
    const chainedEmails = chained.values.map(
      (row) => (row['api.Email.get'] as { values: Array<{ email: string }> }).values,
    );
    expect(chainedEmails.map((values) => values[0].email)).to.deep.equal(['alice@example.org']);
  });

  it('View does not let the user edit; Edit does', async () => {
    const refused = await crm.api3(staff, 'Contact', 'create', { id: alice, nick_name: 'Al' });
    expect(refused.is_error).to.equal(1);
    await crm.api3(admin, 'ACL', 'create', { id: acl, operation: 'Edit' });
    const edited = await crm.api3(staff, 'Contact', 'create', { id: alice, nick_name: 'Al' });
    expect(edited.is_error, JSON.stringify(edited)).to.equal(0);
    expect((await crm.api3(staff, 'Contact', 'create', { id: outsider, nick_name: 'Os' })).is_error).to.equal(1);
  });

  it('a batch of new records (APIv4 save) by a user with group access is checked row by row, as one record is', async () => {
    // Row access for this user is conditional, not "all": each row is asked (a batch asks once only when
    // every create is allowed). A single Email create is refused to the user, and so is a batch.
    const count = async () => Number((await crm.t.kernel.db('crm_email').count({ n: '*' }))[0].n);
    const before = await count();
    const one = await crm.api4(staff, 'Email', 'create', {
      values: { contact_id: alice, email: 'alice.one@example.org' },
    });
    expect(one, JSON.stringify(one)).to.include({ error_message: 'ACL check failed', status: 403 });
    const batch = await crm.api4(staff, 'Email', 'save', {
      records: [
        { contact_id: alice, email: 'alice.batch1@example.org' },
        { contact_id: outsider, email: 'oscar.batch@example.org' },
      ],
    });
    expect(batch, JSON.stringify(batch)).to.include({ error_message: 'ACL check failed', status: 403 });
    expect(await count()).to.equal(before);
  });

  it("a smart group as the ACL's group: the user sees its saved search's matches, less those Removed", async () => {
    const search = await crm.api4(admin, 'SavedSearch', 'create', {
      values: { name: 'zeds', api_entity: 'Contact', api_params: { where: [['last_name', '=', 'Zed']] } },
    });
    const zeds = Number(
      (await crm.api3(admin, 'Group', 'create', { title: 'Zeds', saved_search_id: search.values[0].id })).id,
    );
    const zoe = Number(
      (await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Zoe', last_name: 'Zed' }))
        .id,
    );
    const zac = Number(
      (await crm.api3(admin, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Zac', last_name: 'Zed' }))
        .id,
    );
    const granted = await grantView('civicrm_group', zeds);
    const before = await visible();
    expect(before).to.include.members([zoe, zac]);
    const v4 = await crm.api4(staff, 'Contact', 'get', { select: ['id'], where: [['last_name', '=', 'Zed']] });
    expect(v4.values.map((row) => row.id)).to.have.members([zoe, zac]);
    await crm.api3(admin, 'GroupContact', 'create', { group_id: zeds, contact_id: zac, status: 'Removed' });
    expect(await visible())
      .to.include(zoe)
      .and.not.include(zac);
    await crm.api3(admin, 'ACL', 'delete', { id: granted.id });
    expect(await visible()).to.not.include(zoe);
  });

  it('an ACL on group 0 (the reference\'s "All Contacts") reaches every contact', async () => {
    const everyone = await grantView('civicrm_saved_search', 0);
    expect(await visible()).to.include.members([alice, outsider]);
    await crm.api3(admin, 'ACL', 'delete', { id: everyone.id });
    expect(await visible()).to.not.include(outsider);
  });

  it('taking the user out of the role-holding group, or the client out of the granted group, takes access away', async () => {
    await crm.api3(admin, 'GroupContact', 'create', { group_id: clients, contact_id: outsider });
    expect(await visible()).to.deep.equal([alice, outsider]);
    await crm.api3(admin, 'GroupContact', 'delete', { group_id: clients, contact_id: outsider });
    expect(await visible()).to.deep.equal([alice]);
    await crm.api3(admin, 'GroupContact', 'delete', { group_id: staffGroup, contact_id: staffContact });
    expect(await visible()).to.deep.equal([]);
  });

  it('managing ACLs needs administer CRM', async () => {
    const attempt = await crm.api3(staff, 'ACL', 'create', {
      entity_id: 1,
      operation: 'All',
      object_table: 'civicrm_group',
      object_id: clients,
    });
    expect(attempt.is_error).to.equal(1);
  });
});
