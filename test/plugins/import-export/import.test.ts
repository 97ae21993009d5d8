/** crm import: contacts with their blocks, groups, tags and custom fields; mapping; duplicate rules; summary. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { analyseDue } from '../../../plugins/import-export/importer';
import { bootImportExport, type Harness } from './harness';

describe('import-export: crm import', function () {
  this.timeout(120000);
  let crm: Harness;
  let admin: Record<string, string>;
  const contacts = async (where: unknown[], select: string[]) =>
    (await crm.api4(admin, 'Contact', 'get', { select: ['id', ...select], where, orderBy: { id: 'ASC' } })).values;
  before(async () => {
    crm = await bootImportExport();
    admin = (
      await crm.userWith('importer', [
        'administer CRM',
        'access CRM',
        'view all contacts',
        'edit all contacts',
        'edit groups',
        'administer Tagsets',
        'add contacts',
      ])
    ).headers;
  });
  after(() => crm.t.close());

  it('imports contacts with email and phone, guessing the mapping from the headers', async () => {
    const path = crm.file(
      'basic.csv',
      'First Name,Last Name,Email,Phone,Shoe size\nAda,Lovelace,ada@example.org,555-0100,7\nAlan,Turing,alan@example.org,,9\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], {}));
    expect(summary).to.include({ rows_read: 2, created: 2, updated: 0, skipped: 0, rejected: 0 });
    expect(summary.mapping).to.include.members(['Email → email', 'Shoe size (ignored)']);
    expect(summary.rows_per_second).to.be.a('number');
    const got = await contacts(
      [['last_name', 'IN', ['Lovelace', 'Turing']]],
      ['first_name', 'email_primary.email', 'phone_primary.phone'],
    );
    expect(got.map(({ id: _id, ...rest }) => rest)).to.deep.equal([
      { first_name: 'Ada', 'email_primary.email': 'ada@example.org', 'phone_primary.phone': '555-0100' },
      { first_name: 'Alan', 'email_primary.email': 'alan@example.org', 'phone_primary.phone': null },
    ]);
  });

  it('analyses the tables it wrote after ten batches or more, so reads joining them are planned on their size', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `Stat${i},Analysed,stat${i}@example.org`).join('\n');
    const path = crm.file('analysed.csv', `first_name,last_name,email\n${rows}\n`);
    const summary = JSON.parse(await crm.cli('import', [path], { batchSize: '1' }));
    expect(summary).to.include({ created: 12 });
    const analysed = await crm.t.kernel.db.raw(
      `select relname from pg_stat_user_tables where schemaname = current_schema() and last_analyze is not null
       and relname in ('crm_contact', 'crm_email') order by relname`,
    );
    expect(analysed.rows.map((row: { relname: string }) => row.relname)).to.deep.equal(['crm_contact', 'crm_email']);
  });

  it('analyses them during a long import too, after 10, 100, 1,000… batches (a 1M-row import stayed linear)', () => {
    const due = Array.from({ length: 12_000 }, (_, i) => i + 1).filter(analyseDue);
    expect(due).to.deep.equal([10, 100, 1000, 10000]);
  });

  it('imports addresses, groups, tags and custom fields through a given mapping', async () => {
    const group = await crm.api4(admin, 'Group', 'create', { values: { title: 'Newsletter', name: 'newsletter' } });
    expect(group.values, JSON.stringify(group)).to.have.length(1);
    await crm.api4(admin, 'Tag', 'create', { values: { name: 'Donor' } });
    await crm.api4(admin, 'Tag', 'create', { values: { name: 'Volunteer' } });
    const made = await crm.api3(admin, 'CustomGroup', 'create', { title: 'More About', extends: 'Individual' });
    const field = await crm.api3(admin, 'CustomField', 'create', {
      custom_group_id: made.id,
      label: 'Colour',
      data_type: 'String',
      html_type: 'Text',
    });
    const map = crm.file(
      'map.json',
      JSON.stringify({
        Given: 'first_name',
        Family: 'last_name',
        Mail: 'email',
        Street: 'address.street_address',
        Town: 'address.city',
        Land: 'address.country_id',
        State: 'address.state_province_id',
        Lists: 'groups',
        Labels: 'tags',
        Colour: 'More_About.Colour',
        Note: null,
      }),
    );
    const path = crm.file(
      'full.csv',
      'Given,Family,Mail,Street,Town,Land,State,Lists,Labels,Colour,Note\n' +
        'Grace,Hopper,grace@example.org,1 Navy Way,Arlington,US,VA,Newsletter,Donor;Volunteer,blue,x\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], { map }));
    expect(summary).to.include({ created: 1, rejected: 0 });
    const [grace] = await contacts(
      [['last_name', '=', 'Hopper']],
      [
        'address_primary.street_address',
        'address_primary.city',
        'address_primary.country_id:name',
        'address_primary.state_province_id:name',
        'More_About.Colour',
      ],
    );
    expect(grace).to.include({
      'address_primary.street_address': '1 Navy Way',
      'address_primary.city': 'Arlington',
      'address_primary.country_id:name': 'United States of America',
      // A state named by its code, looked up in the address's country.
      'address_primary.state_province_id:name': 'Virginia',
      'More_About.Colour': 'blue',
    });
    const inGroup = await crm.t.kernel.db('crm_group_contact').where({ contact_id: grace.id });
    expect(inGroup.map((r: { group_id: number; status: string }) => [r.group_id, r.status])).to.deep.equal([
      [group.values[0].id, 'Added'],
    ]);
    const tags = await crm.api4(admin, 'EntityTag', 'get', {
      select: ['tag_id:name'],
      where: [['entity_id', '=', grace.id]],
    });
    expect(tags.values.map((r) => r['tag_id:name'])).to.have.members(['Donor', 'Volunteer']);
    expect(field.id).to.be.a('number');
  });

  it('applies the duplicate rule: skip, update, fill (on email) and refuses a row matching several contacts', async () => {
    const first = crm.file('dupe1.csv', 'first_name,last_name,email,job_title\nKat,Johnson,kat@example.org,\n');
    expect(JSON.parse(await crm.cli('import', [first], {}))).to.include({ created: 1 });
    const again = crm.file(
      'dupe2.csv',
      'first_name,last_name,email,job_title\nKatherine,Johnson,KAT@example.org,Mathematician\n',
    );
    expect(JSON.parse(await crm.cli('import', [again], {}))).to.include({ created: 0, skipped: 1 });
    expect(JSON.parse(await crm.cli('import', [again], { onDuplicate: 'fill' }))).to.include({ updated: 1 });
    let [kat] = await contacts([['last_name', '=', 'Johnson']], ['first_name', 'job_title']);
    expect(kat).to.include({ first_name: 'Kat', job_title: 'Mathematician' });
    expect(JSON.parse(await crm.cli('import', [again], { onDuplicate: 'update' }))).to.include({ updated: 1 });
    [kat] = await contacts([['last_name', '=', 'Johnson']], ['first_name']);
    expect(kat.first_name).to.equal('Katherine');
    // A second contact with the same email: the rule matches two, the row is refused with why.
    const other = await crm.api4(admin, 'Contact', 'create', {
      values: { contact_type: 'Individual', first_name: 'Other', last_name: 'Kat' },
    });
    expect(other.values, JSON.stringify(other)).to.have.length(1);
    const mail = await crm.api4(admin, 'Email', 'create', {
      values: { contact_id: other.values[0].id, email: 'kat@example.org' },
    });
    expect(mail.values, JSON.stringify(mail)).to.have.length(1);
    const errors = crm.file('dupe-errors.csv');
    const summary = JSON.parse(await crm.cli('import', [again], { onDuplicate: 'update', errors }));
    expect(summary).to.include({ updated: 0, rejected: 1 });
    expect(summary.rejections[0].reason).to.match(/duplicate rule \(email\) matches 2 contacts/);
    const lines = readFileSync(errors, 'utf8').trim().split('\n');
    expect(lines[0]).to.equal('row,line,reason,first_name,last_name,email,job_title');
    expect(lines[1]).to.match(/^1,2,"the duplicate rule \(email\) matches 2 contacts: \d+, \d+",Katherine,Johnson,/);
  });

  it('matches on external_identifier, and a repeated key in one file updates the contact its first row made', async () => {
    const path = crm.file(
      'ext.csv',
      'external_identifier,first_name,last_name,phone\nX-1,Mary,Jackson,\nx-1,,Jackson,555-0199\nX-2,Dorothy,Vaughan,\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], { match: 'external_identifier', onDuplicate: 'fill' }));
    expect(summary).to.include({ created: 2, updated: 1, rejected: 0 });
    const [mary] = await contacts([['external_identifier', '=', 'X-1']], ['first_name', 'phone_primary.phone']);
    expect(mary).to.include({ first_name: 'Mary', 'phone_primary.phone': '555-0199' });
    // A later file matches the stored identifier whatever its case (the look-up by index, not the batch's memory).
    const later = crm.file('ext2.csv', 'external_identifier,last_name,phone\nx-2,Vaughan,555-0142\n');
    const again = JSON.parse(await crm.cli('import', [later], { match: 'external_identifier', onDuplicate: 'fill' }));
    expect(again).to.include({ created: 0, updated: 1, rejected: 0 });
    const [dorothy] = await contacts([['external_identifier', '=', 'X-2']], ['first_name', 'phone_primary.phone']);
    expect(dorothy).to.include({ first_name: 'Dorothy', 'phone_primary.phone': '555-0142' });
  });

  it('with a batch in flight (PostgreSQL writes two at once), the next batch sees what it claims: its keys', async () => {
    // One row a batch, so each row's key meets the batch still in flight before it.
    const path = crm.file(
      'adjacent.csv',
      'first_name,last_name,email,phone,external_identifier\nAnn,Adjacent,ann@example.org,,ADJ-1\n' +
        ',Adjacent,ANN@example.org,555-0101,\nCy,Adjacent,cy@example.org,,ADJ-9\nDi,Adjacent,di@example.org,,ADJ-9\n' +
        'Ed,Adjacent,ed@example.org,,\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], { onDuplicate: 'fill', batchSize: 1 }));
    expect(summary).to.include({ rows_read: 5, created: 3, updated: 1, rejected: 1 });
    expect(summary.rejections[0].row).to.equal(4);
    expect(summary.rejections[0].reason).to.equal('external_identifier already exists');
    const got = await contacts(
      [['last_name', '=', 'Adjacent']],
      ['first_name', 'external_identifier', 'email_primary.email', 'phone_primary.phone'],
    );
    expect(
      got.map((c: Record<string, unknown>) => [c.first_name, c.external_identifier, c['phone_primary.phone']]),
    ).to.deep.equal([
      ['Ann', 'ADJ-1', '555-0101'],
      ['Cy', 'ADJ-9', null],
      ['Ed', null, null],
    ]);
    // …and the stored contacts it updates: two rows matching one contact by its two emails fill it once.
    const multi = (
      await crm.api4(admin, 'Contact', 'create', {
        values: { contact_type: 'Individual', first_name: 'Mo', last_name: 'Twomail' },
      })
    ).values[0].id;
    for (const email of ['mo1@example.org', 'mo2@example.org'])
      await crm.api4(admin, 'Email', 'create', { values: { contact_id: multi, email } });
    const fill = crm.file(
      'two-mails.csv',
      'last_name,email,phone\nTwomail,mo1@example.org,555-0201\n' + 'Twomail,mo2@example.org,555-0202\n',
    );
    expect(JSON.parse(await crm.cli('import', [fill], { onDuplicate: 'fill', batchSize: 1 }))).to.include({
      updated: 2,
    });
    const phones = await crm.api4(admin, 'Phone', 'get', { select: ['phone'], where: [['contact_id', '=', multi]] });
    expect(phones.values.map((p: Record<string, unknown>) => p.phone)).to.deep.equal(['555-0201']);
  });

  it('refuses bad rows one by one with their reasons (ragged, no name, bad email, unknown group)', async () => {
    const errors = crm.file('bad-errors.csv');
    const path = crm.file(
      'bad.csv',
      'first_name,last_name,email,groups\nOk,One,ok1@example.org,\nToo,Many,x@example.org,,extra\n,,,\nBad,Mail,not-an-email,\n' +
        'No,Group,ng@example.org,Nowhere\nOk,Two,ok2@example.org,\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], { errors }));
    expect(summary).to.include({ rows_read: 6, created: 2, rejected: 4 });
    expect(summary.rejections.map((r: { reason: string }) => r.reason)).to.deep.equal([
      'the row has 5 cells, the header 4',
      'an individual needs a first name, a last name, a display name or an email',
      'email: "not-an-email" is not an email address',
      'unknown group "Nowhere"',
    ]);
    expect(readFileSync(errors, 'utf8').trim().split('\n')).to.have.length(5);
  });

  it('the error file gives a rejected row the line of the file it ends on (line breaks in cells, empty lines)', async () => {
    const errors = crm.file('lines-errors.csv');
    const path = crm.file(
      'lines.csv',
      'first_name,last_name,email\n"Two\nLines",Ok,l1@example.org\n\nBad,Mail,nope\n"Three\n\nLines",Ok,l2@example.org\n' +
        'Bad,Again,nope2\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], { errors }));
    expect(summary).to.include({ rows_read: 4, created: 2, rejected: 2 });
    const rows = readFileSync(errors, 'utf8').trim().split('\n').slice(1);
    expect(rows.map((row) => row.split(',').slice(0, 2).join(','))).to.deep.equal(['2,5', '4,9']);
  });

  it('a batch whose phone the write refuses is written again row by row: only that row is rejected, nothing doubled', async () => {
    const long = '5'.repeat(40); // Phone.phone holds 32 characters
    const path = crm.file(
      'refused.csv',
      `first_name,last_name,email,phone\nRow,Kept1,kept1@example.org,555-0101\nRow,Refused,refused@example.org,${long}\n` +
        'Row,Kept2,kept2@example.org,555-0102\n',
    );
    const summary = JSON.parse(await crm.cli('import', [path], {}));
    expect(summary).to.include({ rows_read: 3, created: 2, rejected: 1 });
    expect(summary.rejections[0]).to.include({ row: 2 });
    // The phone's own refusal, not the email statement refused after it in the aborted transaction.
    expect(summary.rejections[0].reason).to.equal('DB Error: invalid value');
    const got = await contacts(
      [['last_name', 'IN', ['Kept1', 'Refused', 'Kept2']]],
      ['last_name', 'email_primary.email', 'phone_primary.phone'],
    );
    expect(got.map(({ id: _id, ...rest }) => rest)).to.deep.equal([
      { last_name: 'Kept1', 'email_primary.email': 'kept1@example.org', 'phone_primary.phone': '555-0101' },
      { last_name: 'Kept2', 'email_primary.email': 'kept2@example.org', 'phone_primary.phone': '555-0102' },
    ]);
    // The whole-batch attempt left nothing behind: one email per kept contact, none for the refused one.
    const emails = await crm.t.kernel
      .db('crm_email')
      .whereIn('email', ['kept1@example.org', 'kept2@example.org', 'refused@example.org']);
    expect(emails.map((row: { email: string }) => row.email).sort()).to.deep.equal([
      'kept1@example.org',
      'kept2@example.org',
    ]);
  });
});
