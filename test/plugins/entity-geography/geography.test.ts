/** Countries, states and addresses over HTTP: the seeded ISO data, access, and Address's country and state by code. */
import { expect } from 'chai';
import { bootEntityHttp, type EntityHttp, type Headers } from '../../support/entity-http';

describe('entity-geography: countries, subdivisions and addresses over HTTP', function () {
  this.timeout(60000);
  let crm: EntityHttp;
  let admin: Headers;
  let ann: number;
  let france: number;
  let usa: number;

  before(async () => {
    crm = await bootEntityHttp({ plugins: ['entity-geography', 'entity-contact'] });
    admin = (await crm.userWith('root', ['*'])).headers;
    ann = Number(
      (await crm.api4(admin, 'Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Ann' } }))
        .values[0].id,
    );
    france = Number((await crm.api3(admin, 'Country', 'getsingle', { iso_code: 'FR' })).id);
    usa = Number((await crm.api3(admin, 'Country', 'getsingle', { iso_code: 'US' })).id);
  });
  after(() => crm?.t.close());

  it('seeds every ISO 3166-1 country and ISO 3166-2 subdivision, and the world regions', async () => {
    expect(Number((await crm.api3(admin, 'Country', 'getcount', {})).result)).to.be.at.least(249);
    expect(Number((await crm.api3(admin, 'StateProvince', 'getcount', {})).result)).to.be.at.least(4000);
    expect(Number((await crm.api3(admin, 'WorldRegion', 'getcount', {})).result)).to.equal(6);
    const fr = await crm.api4(admin, 'Country', 'get', { select: ['name', 'iso_code'], where: [['id', '=', france]] });
    expect(fr.values).to.deep.equal([{ name: 'France', iso_code: 'FR' }]);
  });

  it('StateProvince.get by country (4.7.15), with the code after the hyphen as abbreviation', async () => {
    const states = await crm.api3(admin, 'StateProvince', 'get', {
      country_id: usa,
      abbreviation: 'CA',
      sequential: 1,
    });
    expect(states.values.map((row) => row.name)).to.deep.equal(['California']);
    const v4 = await crm.api4(admin, 'StateProvince', 'get', {
      select: ['name', 'country_id:abbr'],
      where: [
        ['country_id:abbr', '=', 'US'],
        ['abbreviation', '=', 'NY'],
      ],
    });
    expect(v4.values).to.deep.equal([{ name: 'New York', 'country_id:abbr': 'US' }]);
  });

  it('4.7.0: countries are read with access CRM, and written only by administrators', async () => {
    const { headers: staff } = await crm.userWith('staff', ['access CRM']);
    expect((await crm.api3(staff, 'Country', 'getsingle', { iso_code: 'DE' })).name).to.equal('Germany');
    const { headers: nobody } = await crm.userWith('nobody', []);
    expect((await crm.api3(nobody, 'Country', 'get', {})).is_error).to.equal(1);
    expect((await crm.api3(staff, 'Country', 'create', { name: 'Atlantis', iso_code: 'AX' })).is_error).to.equal(1);
  });

  it('APIv3 Address.create takes a country by id, ISO code or name, and a state by code within that country', async () => {
    const byCode = await crm.api3(admin, 'Address', 'create', {
      contact_id: ann,
      location_type_id: 1,
      city: 'Sacramento',
      country_id: 'US',
      state_province_id: 'CA',
    });
    expect(byCode.is_error, JSON.stringify(byCode)).to.equal(0);
    const stored = byCode.values[byCode.id as string];
    expect(Number(stored.country_id)).to.equal(usa);
    const california = await crm.api3(admin, 'StateProvince', 'getsingle', { country_id: usa, abbreviation: 'CA' });
    expect(stored.state_province_id).to.equal(california.id);
    const byName = await crm.api3(admin, 'Address', 'create', {
      contact_id: ann,
      location_type_id: 2,
      country_id: 'France',
    });
    expect(Number(byName.values[byName.id as string].country_id)).to.equal(france);
    const byId = await crm.api3(admin, 'Address', 'create', {
      contact_id: ann,
      location_type_id: 3,
      country_id: france,
    });
    expect(Number(byId.values[byId.id as string].country_id)).to.equal(france);
  });

  it("APIv3 Contact.get returns the primary address's place: ids by default, names and world region when named", async () => {
    const bob = await crm.api3(admin, 'Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Bob',
      'api.Address.create': { location_type_id: 1, city: 'Sacramento', country_id: 'US', state_province_id: 'CA' },
    });
    const named = ['state_province_name', 'state_province', 'country', 'worldregion_id', 'world_region'];
    const byDefault = await crm.api3(admin, 'Contact', 'getsingle', { id: bob.id });
    expect(byDefault).to.include.keys('state_province_id', 'country_id');
    expect(byDefault).to.not.have.any.keys(...named);
    const got = await crm.api3(admin, 'Contact', 'getsingle', {
      id: bob.id,
      return: ['state_province_id', 'country_id', ...named],
    });
    const california = await crm.api3(admin, 'StateProvince', 'getsingle', { country_id: usa, abbreviation: 'CA' });
    expect(got).to.include({
      country_id: String(usa),
      state_province_id: String(california.id),
      state_province_name: 'California',
      state_province: 'CA',
      country: 'United States of America',
    });
    expect(got).to.have.property('worldregion_id');
    expect(got).to.have.property('world_region');
    const keys = Object.keys(byDefault).filter((key) => key !== 'is_error');
    expect(keys.indexOf('country_id')).to.equal(keys.indexOf('state_province_id') + 1);
    const inCountry = async (country: string) =>
      Object.keys((await crm.api3(admin, 'Contact', 'get', { country, first_name: 'Bob', return: 'id' })).values);
    expect(await inCountry('United States of America')).to.deep.equal([String(bob.id)]);
    expect(await inCountry('France')).to.deep.equal([]);
  });

  it('an unknown country or a state not in the country is refused with a clear error, nothing stored', async () => {
    const before = Number((await crm.api3(admin, 'Address', 'getcount', { contact_id: ann })).result);
    const country = await crm.api3(admin, 'Address', 'create', {
      contact_id: ann,
      location_type_id: 4,
      country_id: 'Narnia',
    });
    expect(country).to.include({ is_error: 1, error_message: "'Narnia' is not a valid option for field country_id" });
    const state = await crm.api3(admin, 'Address', 'create', {
      contact_id: ann,
      location_type_id: 4,
      country_id: 'FR',
      state_province_id: 'CA',
    });
    expect(state).to.include({ is_error: 1, error_message: "'CA' is not a valid option for field state_province_id" });
    expect(Number((await crm.api3(admin, 'Address', 'getcount', { contact_id: ann })).result)).to.equal(before);
  });

  it('APIv4 Address takes country_id:abbr and returns country_id:name / state_province_id:label', async () => {
    const made = await crm.api4(admin, 'Address', 'create', {
      values: { contact_id: ann, location_type_id: 5, 'country_id:abbr': 'DE', city: 'Berlin' },
    });
    const id = made.values[0].id;
    const got = await crm.api4(admin, 'Address', 'get', {
      select: ['country_id:name', 'country_id:abbr', 'country_id.region_id'],
      where: [['id', '=', id]],
    });
    expect(got.values[0]).to.include({ 'country_id:name': 'Germany', 'country_id:abbr': 'DE' });
  });
});
