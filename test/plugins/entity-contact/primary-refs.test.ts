/** APIv4 Contact `email_primary.*`, `phone_primary.*`, `address_primary.*` over HTTP (issue 11, item 10). */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('APIv4 Contact email_primary / phone_primary / address_primary', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let ann: number;
  let bob: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-contact', 'entity-geography'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    const person = async (first: string, email: string, city: string) => {
      const made = await crm.api3(admin, 'Contact', 'create', {
        contact_type: 'Individual',
        first_name: first,
        email,
        'api.Address.create': { location_type_id: 'Home', city, country_id: 'GB' },
      });
      return Number(made.id);
    };
    ann = await person('Ann', 'ann@example.org', 'Bath');
    bob = await person('Bob', 'bob@example.org', 'York');
    // A second, non-primary email must not duplicate Ann's row.
    await crm.api3(admin, 'Email', 'create', {
      contact_id: ann,
      email: 'ann.work@example.org',
      location_type_id: 'Work',
    });
  });
  after(() => crm?.t.close());

  it('selects, filters and sorts on the primary records, one row per contact', async () => {
    const got = await crm.api4(admin, 'Contact', 'get', {
      select: [
        'first_name',
        'email_primary',
        'email_primary.email',
        'address_primary.city',
        'address_primary.country_id:abbr',
      ],
      where: [
        ['email_primary.email', 'LIKE', '%@example.org'],
        ['id', 'IN', [ann, bob]],
      ],
      orderBy: { 'address_primary.city': 'DESC' },
    });
    expect(got.values, JSON.stringify(got)).to.be.an('array');
    expect(
      got.values.map((row) => [row.first_name, row['email_primary.email'], row['address_primary.city']]),
    ).to.deep.equal([
      ['Bob', 'bob@example.org', 'York'],
      ['Ann', 'ann@example.org', 'Bath'],
    ]);
    expect(got.values[1]['address_primary.country_id:abbr']).to.equal('GB');
    expect(got.values[1].email_primary).to.be.a('number');
    const one = await crm.api4(admin, 'Contact', 'get', {
      select: ['id'],
      where: [['email_primary.email', '=', 'ann@example.org']],
    });
    expect(one.values).to.deep.equal([{ id: ann }]);
    const work = await crm.api4(admin, 'Contact', 'get', {
      select: ['id'],
      where: [['email_primary.email', '=', 'ann.work@example.org']],
    });
    expect(work.values, 'only the primary email counts').to.deep.equal([]);
  });

  it('getFields lists them as references; select * leaves them out; writing one changes nothing', async () => {
    const fields = await crm.api4(admin, 'Contact', 'getFields', { select: ['name', 'fk_entity'] });
    expect(fields.values).to.deep.include({ name: 'email_primary', fk_entity: 'Email' });
    const star = await crm.api4(admin, 'Contact', 'get', { where: [['id', '=', ann]] });
    expect(star.values[0]).to.not.have.property('email_primary');
    // Read-only fields are ignored on write (a fetched record can be saved back): the primary email stays.
    await crm.api4(admin, 'Contact', 'update', { where: [['id', '=', ann]], values: { email_primary: 999 } });
    const after = await crm.api4(admin, 'Contact', 'get', {
      select: ['email_primary.email'],
      where: [['id', '=', ann]],
    });
    expect(after.values).to.deep.equal([{ 'email_primary.email': 'ann@example.org' }]);
  });

  it('writes through them: create and update set the primary Email, Phone and Address (created when missing)', async () => {
    const made = await crm.api4(admin, 'Contact', 'create', {
      values: {
        contact_type: 'Individual',
        first_name: 'Cy',
        'email_primary.email': 'cy@example.org',
        'email_primary.location_type_id:name': 'Work',
        'phone_primary.phone': '01225 000000',
        'address_primary.city': 'Leeds',
        'address_primary.country_id:abbr': 'GB',
      },
    });
    const cy = Number(made.values[0].id);
    expect(made.values[0]).to.include({ 'email_primary.email': 'cy@example.org', 'address_primary.city': 'Leeds' });
    const read = async () =>
      (
        await crm.api4(admin, 'Contact', 'get', {
          select: [
            'email_primary.email',
            'email_primary.location_type_id:name',
            'phone_primary.phone',
            'address_primary.city',
            'address_primary.country_id:abbr',
          ],
          where: [['id', '=', cy]],
        })
      ).values[0];
    expect(await read()).to.deep.equal({
      'email_primary.email': 'cy@example.org',
      'email_primary.location_type_id:name': 'Work',
      'phone_primary.phone': '01225 000000',
      'address_primary.city': 'Leeds',
      'address_primary.country_id:abbr': 'GB',
    });
    // An update changes the primary rows in place: still one email, one phone, one address.
    await crm.api4(admin, 'Contact', 'update', {
      where: [['id', '=', cy]],
      values: { 'email_primary.email': 'cy@new.example.org', 'address_primary.city': 'Hull' },
    });
    expect(await read()).to.include({ 'email_primary.email': 'cy@new.example.org', 'address_primary.city': 'Hull' });
    const emails = await crm.api4(admin, 'Email', 'get', {
      select: ['email', 'is_primary'],
      where: [['contact_id', '=', cy]],
    });
    expect(emails.values).to.deep.equal([{ email: 'cy@new.example.org', is_primary: true }]);
    // save with defaults: a record's own related value wins over the default's.
    const saved = await crm.api4(admin, 'Contact', 'save', {
      defaults: { contact_type: 'Individual', 'email_primary.location_type_id:name': 'Home' },
      records: [{ first_name: 'Di', 'email_primary.email': 'di@example.org' }],
    });
    const di = Number(saved.values[0].id);
    const diEmail = await crm.api4(admin, 'Email', 'get', {
      select: ['email', 'location_type_id:name'],
      where: [['contact_id', '=', di]],
    });
    expect(diEmail.values).to.deep.equal([{ email: 'di@example.org', 'location_type_id:name': 'Home' }]);
  });

  it('refuses unknown dotted values and bad related values, writing nothing', async () => {
    const before = await crm.api4(admin, 'Contact', 'get', { select: ['row_count'] });
    for (const values of [
      { contact_type: 'Individual', first_name: 'Ed', 'email_primary.nope': 'x' },
      { contact_type: 'Individual', first_name: 'Ed', 'first_name.x': 'x' },
      { contact_type: 'Individual', first_name: 'Ed', 'email_primary.location_type_id:name': 'Nowhere' },
    ]) {
      const res = await crm.api4(admin, 'Contact', 'create', { values });
      expect(res.status, JSON.stringify(res)).to.equal(400);
    }
    const after = await crm.api4(admin, 'Contact', 'get', { select: ['row_count'] });
    expect(after.countMatched).to.equal(before.countMatched);
  });
});
