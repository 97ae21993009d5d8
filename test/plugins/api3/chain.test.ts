import { expect } from 'chai';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 chaining (§3.5)', () => {
  let engine: Engine;
  let ann: number;
  let bob: number;
  before(async () => {
    engine = await bootEngine();
    ann = await individual(engine.call, 'Ann', 'Archer', { email: 'ann@example.org' });
    bob = await individual(engine.call, 'Bob', 'Baker', { email: 'bob@example.org' });
    await engine.call('Email', 'create', { contact_id: bob, email: 'bob2@example.org', location_type_id: 'Work' });
  });
  after(async () => engine?.t.close());

  it('runs api.<Entity>.<action> once per parent row with the FK default and sequential=1', async () => {
    const result = await engine.call('Contact', 'get', {
      contact_type: 'Individual',
      return: 'display_name',
      'api.Email.get': { return: 'email', options: { sort: 'email' } },
    });
    expect(result.values[String(ann)]['api.Email.get']).to.deep.equal({
      is_error: 0,
      version: 3,
      count: 1,
      id: result.values[String(ann)]['api.Email.get'].id,
      values: [{ id: String(result.values[String(ann)]['api.Email.get'].id), email: 'ann@example.org' }],
    });
    const bobs = result.values[String(bob)]['api.Email.get'];
    expect(bobs.count).to.equal(2);
    expect(bobs.values.map((v: any) => v.email)).to.deep.equal(['bob2@example.org', 'bob@example.org']);
    expect(bobs).not.to.have.property('id');
  });

  it('the caller may override sequential inside the chain; the api_ spelling works; value 1 means no params', async () => {
    const r = await engine.call('Contact', 'getsingle', {
      id: ann,
      return: 'id',
      api_Email_get: { sequential: 0, return: 'email' },
      'api.Phone.get': 1,
    });
    const emails = r.api_Email_get;
    expect(Array.isArray(emails.values)).to.equal(false);
    expect(Object.values(emails.values)).to.deep.equal([{ id: String(emails.id), email: 'ann@example.org' }]);
    expect(r['api.Phone.get']).to.deep.equal({ is_error: 0, version: 3, count: 0, values: [] });
  });

  it('batches a chained get over a foreign key: the query count does not grow with the parents', async () => {
    const run = () =>
      engine.call('Contact', 'get', {
        contact_type: 'Individual',
        return: 'id',
        options: { limit: 0 },
        'api.Email.get': { return: 'email' },
      });
    const before = await engine.countQueries(run);
    for (let i = 0; i < 8; i++) await individual(engine.call, `P${i}`, 'Extra', { email: `p${i}@example.org` });
    let result: any;
    const after = await engine.countQueries(async () => {
      result = await run();
    });
    expect(after).to.equal(before);
    expect(after, 'the parent query and one batched child query, no transaction for reads').to.equal(2);
    expect(Object.keys(result.values)).to.have.length(10);
    expect(result.values[String(bob)]['api.Email.get'].count).to.equal(2);
    // per-parent limit still applies within each group
    const limited = await engine.call('Contact', 'get', { id: bob, 'api.Email.get': { options: { limit: 1 } } });
    expect(limited.values[String(bob)]['api.Email.get'].count).to.equal(1);
  });

  it('batches a chain keyed by the child id (Email → Contact) and keeps id in the output', async () => {
    let result: any;
    const queries = await engine.countQueries(async () => {
      result = await engine.call('Email', 'get', {
        contact_id: { IN: [ann, bob] },
        sequential: 1,
        options: { sort: 'email' },
        return: 'email,contact_id',
        'api.Contact.get': { return: 'first_name' },
      });
    });
    expect(result.values.map((v: any) => v['api.Contact.get'].values[0])).to.deep.equal([
      { first_name: 'Ann', id: String(ann) },
      { first_name: 'Bob', id: String(bob) },
      { first_name: 'Bob', id: String(bob) },
    ]);
    expect(queries).to.equal(2); // emails, then contacts (one query for all); reads need no transaction
  });

  it('substitutes $value.<field>, including the operator form and earlier chain results', async () => {
    const r = await engine.call('Email', 'get', {
      contact_id: ann,
      sequential: 1,
      return: 'contact_id,email',
      'api.Contact.getsingle': { id: '$value.contact_id', return: 'first_name' },
      'api.Contact.get': { id: { IN: '$value.contact_id' }, return: 'last_name' },
      'api.Email.getcount': { email: '$value.api.Contact.getsingle.first_name' },
    });
    const row = r.values[0];
    expect(row['api.Contact.getsingle']).to.deep.equal({ first_name: 'Ann', id: String(ann) });
    expect(row['api.Contact.get'].values[0].last_name).to.equal('Archer');
    expect(row['api.Email.getcount']).to.equal(0);
  });

  it("$value paths read the parent row's own keys only (never a prototype member)", async () => {
    const r = await engine.call('Email', 'get', {
      contact_id: ann,
      sequential: 1,
      return: 'contact_id,email',
      'api.Email.getcount': { email: '$value.no_such_key' },
      'api.Email.getcount.proto': { email: '$value.constructor' },
      'api.Contact.getcount': { first_name: '$value.no_such_key' },
      'api.Contact.getcount.proto': { first_name: '$value.__proto__.toString' },
    });
    // Like any path the row does not have: null, i.e. no value for that filter.
    const row = r.values[0];
    expect(row['api.Email.getcount.proto']).to.equal(row['api.Email.getcount']);
    expect(row['api.Contact.getcount.proto']).to.equal(row['api.Contact.getcount']);
  });

  it('runs nested chains and lists of parameter sets', async () => {
    const result = await engine.call('Contact', 'get', {
      id: ann,
      return: 'id',
      'api.Email.get': {
        return: 'location_type_id',
        'api.LocationType.getsingle': { id: '$value.location_type_id', return: 'name' },
      },
      'api.Phone.create': [{ phone: '111' }, { phone: '222' }],
    });
    const row = result.values[String(ann)];
    expect(row['api.Email.get'].values[0]['api.LocationType.getsingle'].name).to.equal('Home');
    expect(row['api.Phone.create']).to.have.length(2);
    expect(row['api.Phone.create'].map((x: any) => Object.values(x.values as object)[0].phone)).to.deep.equal([
      '111',
      '222',
    ]);
    expect(await engine.call('Phone', 'getcount', { contact_id: ann })).to.equal(2);
  });

  it('a failing chained call fails the parent with chained_api_failed and rolls everything back', async () => {
    const before = await engine.call('Contact', 'getcount', {});
    const err = await engine.fail('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Doomed',
      'api.Email.create': { email: 'x@example.org', location_type_id: 'Nowhere' },
    });
    expect(err.message).to.equal(
      "Error in call to Email_create : 'Nowhere' is not a valid option for field location_type_id",
    );
    expect(err.details).to.include({ error_code: 'chained_api_failed', error_field: 'location_type_id' });
    expect(await engine.call('Contact', 'getcount', {})).to.equal(before);
  });

  it('ignores chains for getfields and getoptions', async () => {
    const r = await engine.call('Contact', 'getoptions', { field: 'gender_id', 'api.Email.get': {} });
    expect(r.values).to.deep.equal({ 1: 'Female', 2: 'Male', 3: 'Other' });
  });
});
