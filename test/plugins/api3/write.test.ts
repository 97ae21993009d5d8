import { expect } from 'chai';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 writes: create/update, delete, replace, validate, match, force_rollback, deprecated actions', () => {
  let e: Engine;
  let ann: number;
  before(async () => {
    e = await bootEngine();
    ann = await individual(e.call, 'Ann', 'Archer');
  });
  after(async () => e?.t.close());

  it('create returns the saved record keyed by id, leaves as strings, nulls as ""', async () => {
    const r = await e.call('Phone', 'create', { contact_id: ann, phone: '(555) 123-4567', phone_type_id: 'Mobile' });
    expect(Object.keys(r)).to.deep.equal(['is_error', 'version', 'count', 'id', 'values']);
    const v = r.values[String(r.id)];
    expect(v).to.include({
      id: String(r.id),
      contact_id: String(ann),
      phone: '(555) 123-4567',
      phone_numeric: '5551234567',
      phone_type_id: '2',
      is_primary: '1',
      location_type_id: '1',
      phone_ext: '',
    });
  });

  it('create with id updates; the id must be an integer and exist', async () => {
    const r = await e.call('Contact', 'create', { id: ann, nick_name: 'Annie' });
    expect(r.values[String(ann)]).to.include({ nick_name: 'Annie', first_name: 'Ann' });
    expect((await e.fail('Contact', 'create', { id: 'x1', nick_name: 'y' })).details).to.include({ error_code: 2001 });
    expect((await e.fail('Contact', 'create', { id: 99999, nick_name: 'y' })).message).to.equal(
      'Contact id 99999 not found.',
    );
  });

  it('missing mandatory fields: mandatory_missing with fields, wire key order', async () => {
    const err = await e.fail('Email', 'create', { contact_id: ann });
    expect(err.message).to.equal('Mandatory key(s) missing from params array: email');
    expect(err.details).to.deep.include({
      fields: ['email'],
      error_code: 'mandatory_missing',
      entity: 'Email',
      action: 'create',
    });
    expect(Object.keys(err.details!)).to.deep.equal(['fields', 'error_code', 'entity', 'action']);
  });

  it('rejects over-long strings (2100) and bad integers (2001)', async () => {
    const long = await e.fail('Contact', 'create', { contact_type: 'Individual', first_name: 'x'.repeat(65) });
    expect(long.details).to.include({ error_code: 2100, field: 'first_name', max_length: 64 });
    const bad = await e.fail('Email', 'create', { contact_id: 'abc', email: 'a@b.c' });
    expect(bad.message).to.equal('contact_id is not a valid integer');
  });

  it('database constraint failures are API errors without SQL text', async () => {
    await e.call('Contact', 'create', { contact_type: 'Individual', first_name: 'U', external_identifier: 'UNIQ-1' });
    const dup = await e.fail('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'V',
      external_identifier: 'UNIQ-1',
    });
    expect(dup.code).to.equal('E_CONFLICT');
    expect(dup.message).to.equal('DB Error: already exists');
    expect(dup.details).to.include({ error_code: 'already exists' });
    const fk = await e.fail('Email', 'create', { contact_id: 987654, email: 'orphan@example.org' });
    expect(fk.message).to.equal('DB Error: constraint violation');
    for (const err of [dup, fk]) expect(err.message).not.to.match(/insert|crm_|select/i);
  });

  it('options.match updates the matched record; match-mandatory refuses when nothing matches; ambiguity is an error', async () => {
    await e.call('Contact', 'create', { contact_type: 'Individual', first_name: 'Mia', external_identifier: 'EXT-1' });
    const m = await e.call('Contact', 'create', {
      contact_type: 'Individual',
      external_identifier: 'EXT-1',
      job_title: 'Boss',
      options: { match: 'external_identifier' },
    });
    expect(m.values[String(m.id)]).to.include({ first_name: 'Mia', job_title: 'Boss' });
    expect(await e.call('Contact', 'getcount', { external_identifier: 'EXT-1' })).to.equal(1);
    const none = await e.fail('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Z',
      external_identifier: 'EXT-2',
      options: { 'match-mandatory': ['external_identifier'] },
    });
    expect(none.message).to.equal('Failed to match existing record');
    await individual(e.call, 'Twin', 'Same');
    await individual(e.call, 'Twin', 'Same');
    expect(
      (
        await e.fail('Contact', 'create', {
          contact_type: 'Individual',
          first_name: 'Twin',
          options: { match: 'first_name' },
        })
      ).message,
    ).to.equal('Ambiguous match criteria');
  });

  it('options.force_rollback runs the call then really rolls it back', async () => {
    const before = await e.call('Contact', 'getcount', {});
    const r = await e.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Ghost',
      email: 'ghost@example.org',
      options: { force_rollback: 1 },
    });
    expect(r.count).to.equal(1);
    expect(await e.call('Contact', 'getcount', {})).to.equal(before);
    expect(await e.call('Email', 'getcount', { email: 'ghost@example.org' })).to.equal(0);
    const withChain = await e.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Ghost2',
      options: { force_rollback: 1 },
      'api.Email.create': { email: 'g2@example.org' },
    });
    expect(withChain.count).to.equal(1);
    expect(await e.call('Contact', 'getcount', { first_name: 'Ghost2' })).to.equal(0);
  });

  it('delete: needs id, returns values 1, errors on unknown ids', async () => {
    const p = await e.call('Phone', 'create', { contact_id: ann, phone: '999' });
    expect(await e.call('Phone', 'delete', { id: p.id })).to.deep.equal({
      is_error: 0,
      version: 3,
      count: 1,
      values: 1,
    });
    expect((await e.fail('Phone', 'delete', {})).details).to.include({ error_code: 'mandatory_missing' });
    expect((await e.fail('Phone', 'delete', { id: p.id })).message).to.equal(`Could not delete entity id ${p.id}`);
  });

  it('replace creates, updates and deletes to match the given set', async () => {
    const w1 = await e.call('Website', 'create', { contact_id: ann, url: 'https://one.example' });
    await e.call('Website', 'create', { contact_id: ann, url: 'https://two.example' });
    const r = await e.call('Website', 'replace', {
      contact_id: ann,
      values: [{ id: w1.id, url: 'https://one-updated.example' }, { url: 'https://three.example' }],
    });
    expect(r.count).to.equal(2);
    const urls = (
      await e.call('Website', 'get', { contact_id: ann, sequential: 1, options: { sort: 'id' } })
    ).values.map((v: any) => v.url);
    expect(urls).to.deep.equal(['https://one-updated.example', 'https://three.example']);
    expect((await e.fail('Website', 'replace', { contact_id: ann })).message).to.equal(
      'Mandatory key(s) missing from params array: values',
    );
  });

  it('validate returns a per-field error map without throwing', async () => {
    const r = await e.call('Email', 'validate', { action: 'create', contact_id: 'abc' });
    expect(r.count).to.equal(1);
    expect(r.values[0].contact_id).to.deep.equal({
      message: 'contact_id is not a valid integer',
      code: 'incorrect_value',
    });
    expect(r.values[0].email.code).to.equal('mandatory_missing');
    const ok = await e.call('Email', 'validate', { action: 'create', contact_id: ann, email: 'a@b.c' });
    expect(ok.values).to.deep.equal([{}]);
  });

  it('deprecated setvalue and update still work and say so', async () => {
    const s = await e.call('Contact', 'setvalue', { id: ann, field: 'job_title', value: 'Chief' });
    expect(s.values).to.deep.equal({ id: String(ann), job_title: 'Chief' });
    expect(s.deprecated).to.be.a('string');
    expect((await e.fail('Contact', 'setvalue', { id: ann, field: 'nope', value: 1 })).details).to.include({
      error_code: 'invalid_field',
    });
    expect((await e.fail('Contact', 'setvalue', { id: ann, field: 'gender_id', value: 'abc' })).details).to.include({
      error_code: 'NaN',
    });
    const u = await e.call('Contact', 'update', { id: ann, job_title: 'CEO' });
    expect(u.values[String(ann)]).to.include({ job_title: 'CEO', first_name: 'Ann' });
    expect(u.deprecated).to.be.a('string');
    expect((await e.fail('Contact', 'update', { job_title: 'x' })).message).to.equal('Mandatory parameter missing id');
    expect((await e.fail('Contact', 'update', { id: 424242 })).message).to.equal('No Contact with id 424242');
  });

  it('api3() in-process helper: same pipeline, caller transaction, typed error', async () => {
    const { api3, Api3CallError } = await import('../../../plugins/api3');
    const { createRequestScope } = await import('../../../kernel');
    const { principalWith } = await import('../../../host/testing');
    const scope = createRequestScope(
      e.t.kernel.container,
      'helper',
      principalWith(['access CRM', 'add contacts'], ann),
    );
    try {
      const r = (await api3(scope, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Helper' })) as {
        id: number;
      };
      expect(r.id).to.be.a('number');
      let caught: unknown;
      try {
        await api3(scope, 'Contact', 'delete', { id: r.id });
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(Api3CallError);
      expect((caught as InstanceType<typeof Api3CallError>).errorCode).to.equal('unauthorized');
      try {
        await api3(scope, 'Email', 'create', { contact_id: r.id });
      } catch (err) {
        caught = err;
      }
      expect((caught as InstanceType<typeof Api3CallError>).errorCode).to.equal('mandatory_missing');
    } finally {
      await scope.dispose();
    }
  });

  it('user_contact_id means the caller', async () => {
    const { principalWith } = await import('../../../host/testing');
    const r = await e.call(
      'Contact',
      'getsingle',
      { id: 'user_contact_id', return: 'first_name' },
      principalWith(['access CRM'], ann),
    );
    expect(r.first_name).to.equal('Ann');
  });

  it('unknown entity or action is not-found', async () => {
    const err = await e.fail('Nope', 'get', {});
    expect(err.details).to.include({ error_code: 'not-found' });
    expect(err.message).to.equal('API (Nope, get) does not exist (join the API team and implement it!)');
    expect((await e.fail('contact', 'frobnicate', {})).details).to.include({ error_code: 'not-found' });
  });
});
