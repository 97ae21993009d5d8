import { expect } from 'chai';
import { principalWith } from '../../../host/testing';
import { individualDisplayName, individualSortName } from '../../../plugins/entity-contact/names';
import { bootEngine, type Engine } from '../api3/helpers';
import type { IdentityStore } from '../../../plugins/users';

describe('entity-contact', () => {
  let engine: Engine;
  before(async () => {
    engine = await bootEngine({ plugins: ['api4'] });
  });
  after(async () => engine?.t.close());

  const one = async (params: Record<string, unknown>) => {
    const r = await engine.call('Contact', 'create', params);
    return r.values[String(r.id)];
  };

  describe('names (§4.2)', () => {
    it('formats display and sort names with the separator rules', () => {
      expect(individualDisplayName({ prefix: 'Dr.', first_name: 'John', last_name: 'Smith', suffix: 'Jr.' })).to.equal(
        'Dr. John Smith Jr.',
      );
      expect(individualSortName({ first_name: 'John', last_name: 'Smith', suffix: 'Jr.' })).to.equal('Smith, John Jr.');
      expect(individualSortName({ first_name: 'John' })).to.equal('John');
      expect(individualSortName({ last_name: 'Smith' })).to.equal('Smith');
      expect(individualSortName({ last_name: 'Smith', suffix: 'Jr.' })).to.equal('Smith Jr.');
      expect(individualDisplayName({ prefix: 'Dr.', last_name: 'Who' })).to.equal('Dr. Who');
    });
    it('builds names on create from prefix/suffix labels; middle name is not used', async () => {
      const c = await one({
        contact_type: 'Individual',
        first_name: 'John',
        middle_name: 'Q',
        last_name: 'Smith',
        prefix_id: 'Dr.',
        suffix_id: 'Jr.',
      });
      expect(c).to.include({ display_name: 'Dr. John Smith Jr.', sort_name: 'Smith, John Jr.' });
    });
    it('recomputes names on update', async () => {
      const c = await one({ contact_type: 'Individual', first_name: 'Jane', last_name: 'Doe' });
      const r = await engine.call('Contact', 'create', { id: c.id, last_name: 'Roe' });
      expect(r.values[c.id]).to.include({ display_name: 'Jane Roe', sort_name: 'Roe, Jane' });
    });
    it('organizations and households use their names', async () => {
      expect(await one({ contact_type: 'Organization', organization_name: 'Acme' })).to.include({
        display_name: 'Acme',
        sort_name: 'Acme',
      });
      expect(await one({ contact_type: 'Household', household_name: 'The Does' })).to.include({
        display_name: 'The Does',
        sort_name: 'The Does',
      });
    });
    it('a contact without names takes the email as display and sort name', async () => {
      expect(await one({ contact_type: 'Individual', email: 'Only@Example.org' })).to.include({
        display_name: 'only@example.org',
        sort_name: 'only@example.org',
      });
    });
  });

  describe('create (§4.1)', () => {
    it('requires contact_type and the per-type minimum', async () => {
      expect((await engine.fail('Contact', 'create', { first_name: 'X' })).details).to.deep.include({
        fields: ['contact_type'],
        error_code: 'mandatory_missing',
      });
      expect((await engine.fail('Contact', 'create', { contact_type: 'Individual', job_title: 'x' })).message).to.equal(
        'Mandatory key(s) missing from params array: one of (first_name, last_name, email, display_name)',
      );
      expect((await engine.fail('Contact', 'create', { contact_type: 'Organization' })).message).to.equal(
        'Mandatory key(s) missing from params array: organization_name',
      );
      expect((await engine.fail('Contact', 'create', { contact_type: 'Household' })).message).to.equal(
        'Mandatory key(s) missing from params array: household_name',
      );
      expect((await engine.fail('Contact', 'create', { contact_type: 'Robot', first_name: 'R2' })).message).to.equal(
        "'Robot' is not a valid option for field contact_type",
      );
    });
    it('checks contact_sub_type against contact_type; stores it multi-valued', async () => {
      expect(
        (
          await engine.fail('Contact', 'create', {
            contact_type: 'Organization',
            organization_name: 'O',
            contact_sub_type: 'Student',
          })
        ).message,
      ).to.equal('Invalid or Mismatched Contact Subtype: Student');
      const c = await one({ contact_type: 'Individual', first_name: 'S', contact_sub_type: ['Student', 'Staff'] });
      expect(c.contact_sub_type).to.deep.equal(['Student', 'Staff']);
      const found = await engine.call('Contact', 'get', { contact_sub_type: 'Staff', return: 'id' });
      expect(Object.keys(found.values)).to.deep.equal([c.id]);
    });
    it('email on create makes the primary email; aliases work (gender, individual_prefix)', async () => {
      const c = await one({
        contact_type: 'Individual',
        first_name: 'Em',
        email: 'em@example.org',
        gender: 'Male',
        individual_prefix: 'Mr.',
      });
      expect(c).to.include({ gender_id: '2', prefix_id: '3' });
      const emails = await engine.call('Email', 'get', { contact_id: c.id, sequential: 1 });
      expect(emails.values).to.have.length(1);
      expect(emails.values[0]).to.include({ email: 'em@example.org', is_primary: '1', location_type_id: '1' });
      const got = await engine.call('Contact', 'getsingle', { id: c.id, return: 'email,gender,individual_prefix' });
      expect(got).to.include({ email: 'em@example.org', gender: 'Male', individual_prefix: 'Mr.' });
    });
    it('dupe_check=1 refuses a duplicate with error_code duplicate and the ids', async () => {
      const contact = await one({
        contact_type: 'Individual',
        first_name: 'Dup',
        last_name: 'Licate',
        email: 'dup@example.org',
      });
      const err = await engine.fail('Contact', 'create', {
        contact_type: 'Individual',
        first_name: 'Dup',
        last_name: 'Licate',
        email: 'DUP@example.org',
        dupe_check: 1,
      });
      expect(err.message).to.equal(`Found matching contacts: ${contact.id}`);
      expect(err.details).to.include({ error_code: 'duplicate' });
      expect(err.details!.ids).to.deep.equal([contact.id]);
      const other = await engine.call('Contact', 'create', {
        contact_type: 'Individual',
        first_name: 'Dup',
        last_name: 'Licate',
        email: 'other@example.org',
        dupe_check: 1,
      });
      expect(other.count).to.equal(1);
    });
    it('birth_date_low / _high (and filter.) filter date ranges', async () => {
      const c = await one({
        contact_type: 'Individual',
        first_name: 'Old',
        last_name: 'Timer',
        birth_date: '1901-02-03',
      });
      const ids = async (p: Record<string, unknown>) =>
        Object.keys((await engine.call('Contact', 'get', { return: 'id', ...p })).values);
      expect(await ids({ birth_date_low: '1901-01-01', birth_date_high: '1901-12-31' })).to.deep.equal([c.id]);
      expect(await ids({ 'filter.birth_date_high': '1900-12-31' })).to.deep.equal([]);
      expect((await engine.call('Contact', 'getsingle', { id: c.id, return: 'birth_date' })).birth_date).to.equal(
        '1901-02-03',
      );
    });
    it('current_employer finds or creates the organisation; get returns its name; filters and sorts on it', async () => {
      const first = await one({
        contact_type: 'Individual',
        first_name: 'Wendy',
        last_name: 'Worker',
        current_employer: 'Widget Co',
      });
      const orgs = await engine.call('Contact', 'get', {
        contact_type: 'Organization',
        organization_name: 'Widget Co',
        sequential: 1,
        return: 'id',
      });
      expect(orgs.count).to.equal(1);
      expect(first.employer_id).to.equal(orgs.values[0].id);
      const second = await one({
        contact_type: 'Individual',
        first_name: 'Walt',
        last_name: 'Worker',
        current_employer: 'Widget Co',
      });
      expect(second.employer_id).to.equal(orgs.values[0].id);
      const got = await engine.call('Contact', 'getsingle', { id: first.id });
      expect(got.current_employer).to.equal('Widget Co');
      const byEmployer = await engine.call('Contact', 'get', {
        current_employer: 'Widget Co',
        return: 'first_name',
        sequential: 1,
        options: { sort: 'current_employer, first_name' },
      });
      expect(byEmployer.values.map((v: any) => v.first_name)).to.deep.equal(['Walt', 'Wendy']);
      const mismatch = await engine.fail('Contact', 'create', {
        contact_type: 'Individual',
        first_name: 'M',
        current_employer: 'Widget Co',
        employer_id: first.id,
      });
      expect(mismatch.message).to.equal('Employer name and Employer id Mismatch');
    });
    it('api_key needs a permission to set and to read', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'K' });
      const err = await engine.fail(
        'Contact',
        'create',
        { id: contact.id, api_key: 'secret123' },
        principalWith(['access CRM'], 1),
      );
      expect(err.message).to.equal('Permission denied to modify api key');
      await engine.call('Contact', 'create', { id: contact.id, api_key: 'secret123' });
      const staff = await engine.call(
        'Contact',
        'getsingle',
        { id: contact.id, return: 'api_key,first_name' },
        principalWith(['access CRM'], 1),
      );
      expect(staff).not.to.have.property('api_key');
      expect((await engine.call('Contact', 'getsingle', { id: contact.id, return: 'api_key' })).api_key).to.equal(
        'secret123',
      );
    });
    it('api_key is stored encrypted, authenticates as the reference key does, is no filter; a new one revokes the old', async () => {
      const keyed = await bootEngine({ plugins: ['api4', 'users'] });
      try {
        const db = keyed.t.kernel.db;
        const identity = keyed.t.kernel.container.resolve<IdentityStore>('identity');
        const made = await keyed.call('Contact', 'create', {
          contact_type: 'Individual',
          first_name: 'Kay',
          api_key: 'first-key-0123456789',
        });
        const id = Number(made.id);
        const stored = await db('crm_contact').where({ id }).first('api_key');
        expect(stored.api_key).to.match(/^enc:v1:/);
        expect(await identity.contactForApiKey(db, 'first-key-0123456789')).to.equal(id);
        await keyed.call('Contact', 'create', { id, api_key: 'second-key-0123456789' });
        expect(await identity.contactForApiKey(db, 'first-key-0123456789')).to.equal(null);
        expect(await identity.contactForApiKey(db, 'second-key-0123456789')).to.equal(id);
        const filter = await keyed.fail('Contact', 'get', { api_key: 'second-key-0123456789' });
        expect(filter.message).to.equal('api_key is stored encrypted and cannot be used in a filter');
        await keyed.call('Contact', 'create', { id, api_key: '' });
        expect(await identity.contactForApiKey(db, 'second-key-0123456789')).to.equal(null);
      } finally {
        await keyed.t.close();
      }
    });
  });

  describe('legacy record fields', () => {
    it('preferred_mail_format: Text, HTML or Both (the default), returned when asked for', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'Mia' });
      const got = await engine.call('Contact', 'getsingle', { id: contact.id, return: ['preferred_mail_format'] });
      expect(got.preferred_mail_format).to.equal('Both');
      await engine.call('Contact', 'create', { id: contact.id, preferred_mail_format: 'HTML' });
      const html = await engine.call('Contact', 'getsingle', { id: contact.id, return: ['preferred_mail_format'] });
      expect(html.preferred_mail_format).to.equal('HTML');
      const bad = await engine.fail('Contact', 'create', { id: contact.id, preferred_mail_format: 'Morse' });
      expect(bad.message).to.match(/preferred_mail_format/);
      const plain = await engine.call('Contact', 'getsingle', { id: contact.id });
      expect(plain).not.to.have.property('preferred_mail_format');
    });
    it('home_URL (or home_url) on create is stored as a Website of the first website type', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'Web', home_URL: 'https://example.org/web' });
      const sites = await engine.call('Website', 'get', { contact_id: contact.id, sequential: 1 });
      expect(sites.values.map((site: Record<string, unknown>) => [site.url, site.website_type_id])).to.deep.equal([
        ['https://example.org/web', '1'],
      ]);
      const other = await one({ contact_type: 'Individual', first_name: 'Low', home_url: 'https://example.org/low' });
      expect(await engine.call('Website', 'getcount', { contact_id: other.id })).to.equal(1);
    });
  });

  describe('delete and trash (§4.3, §4.4)', () => {
    it('moves to trash by default; get hides trash; showAll and is_deleted reveal it; skip_undelete deletes', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'Trashy', email: 'trash@example.org' });
      expect(await engine.call('Contact', 'delete', { id: contact.id })).to.deep.equal({
        is_error: 0,
        version: 3,
        count: 1,
        values: 1,
      });
      expect(await engine.call('Contact', 'getcount', { id: contact.id })).to.equal(0);
      expect(await engine.call('Contact', 'getcount', { id: contact.id, is_deleted: 1 })).to.equal(1);
      expect(await engine.call('Contact', 'getcount', { id: contact.id, showAll: 'all' })).to.equal(1);
      expect(await engine.call('Contact', 'getcount', { id: contact.id, showAll: 'trash' })).to.equal(1);
      expect(await engine.call('Email', 'getcount', { contact_id: contact.id })).to.equal(1);
      await engine.call('Contact', 'delete', { id: contact.id, skip_undelete: 1 });
      expect(await engine.call('Contact', 'getcount', { id: contact.id, showAll: 'all' })).to.equal(0);
      expect(await engine.call('Email', 'getcount', { contact_id: contact.id })).to.equal(0);
    });
    it('restore=1 brings a contact back from the trash (APIv3); APIv4 restores with is_deleted false', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'Lazarus' });
      await engine.call('Contact', 'delete', { id: contact.id });
      expect(await engine.call('Contact', 'getcount', { id: contact.id })).to.equal(0);
      await engine.call('Contact', 'delete', { id: contact.id, restore: 1 });
      expect(await engine.call('Contact', 'getcount', { id: contact.id })).to.equal(1);
      await engine.call('Contact', 'delete', { id: contact.id });
      await engine.t.kernel.call({
        version: 4,
        entity: 'Contact',
        action: 'update',
        params: { where: [['id', '=', contact.id]], values: { is_deleted: false } },
        principal: principalWith(['*'], 1),
      });
      expect(await engine.call('Contact', 'getcount', { id: contact.id })).to.equal(1);
    });
    it('refuses to delete the logged-in contact', async () => {
      const c = await one({ contact_type: 'Individual', first_name: 'Me' });
      const err = await engine.fail('Contact', 'delete', { id: c.id }, principalWith(['*'], Number(c.id)));
      expect(err.message).to.equal(
        'This contact record is linked to the currently logged in user account - and cannot be deleted.',
      );
    });
  });

  describe('email/phone/address/website primary rules (§4.5)', () => {
    it('first block is primary; a new primary clears the others; deleting the primary promotes another', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'P' });
      const emailA = await engine.call('Email', 'create', { contact_id: contact.id, email: 'A@Example.org' });
      expect(emailA.values[emailA.id]).to.include({ is_primary: '1', email: 'a@example.org' });
      const emailB = await engine.call('Email', 'create', { contact_id: contact.id, email: 'b@example.org' });
      expect(emailB.values[emailB.id].is_primary).to.equal('0');
      await engine.call('Email', 'create', { id: emailB.id, is_primary: 1 });
      const prim = async () =>
        (await engine.call('Email', 'get', { contact_id: contact.id, is_primary: 1, sequential: 1 })).values.map(
          (v: any) => v.email,
        );
      expect(await prim()).to.deep.equal(['b@example.org']);
      await engine.call('Email', 'create', { id: emailA.id, signature_text: 'hi' });
      expect(await prim()).to.deep.equal(['b@example.org']);
      await engine.call('Email', 'delete', { id: emailB.id });
      expect(await prim()).to.deep.equal(['a@example.org']);
      expect((await engine.call('Contact', 'getsingle', { id: contact.id, return: 'email' })).email).to.equal(
        'a@example.org',
      );
    });
    it('is_bulkmail is kept on one email per contact', async () => {
      const c = await one({ contact_type: 'Individual', first_name: 'Bulk' });
      const a = await engine.call('Email', 'create', { contact_id: c.id, email: 'a@bulk.org', is_bulkmail: 1 });
      await engine.call('Email', 'create', { contact_id: c.id, email: 'b@bulk.org', is_bulkmail: 1 });
      expect(await engine.call('Email', 'getvalue', { id: a.id, return: 'is_bulkmail' })).to.equal('0');
    });
    it('the only row cannot be made non-primary; phones get phone_numeric; addresses default the location type', async () => {
      const contact = await one({ contact_type: 'Individual', first_name: 'Q' });
      const phone = await engine.call('Phone', 'create', {
        contact_id: contact.id,
        phone: '+44 (20) 7946-0000',
        is_primary: 0,
      });
      expect(phone.values[phone.id]).to.include({ is_primary: '1', phone_numeric: '442079460000' });
      const address = await engine.call('Address', 'create', {
        contact_id: contact.id,
        street_address: '1 Main St',
        city: 'Springfield',
      });
      expect(address.values[address.id]).to.include({ location_type_id: '1', is_primary: '1' });
      const got = await engine.call('Contact', 'getsingle', { id: contact.id, return: 'street_address,city,phone' });
      expect(got).to.include({ street_address: '1 Main St', city: 'Springfield', phone: '+44 (20) 7946-0000' });
      const website = await engine.call('Website', 'create', {
        contact_id: contact.id,
        url: 'https://q.example',
        website_type_id: 'Work',
      });
      expect(website.values[website.id]).to.include({ website_type_id: '1' });
    });
  });
});
