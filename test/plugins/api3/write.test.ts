import { expect } from 'chai';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 writes: create/update, delete, replace, validate, match, force_rollback, deprecated actions', () => {
  let engine: Engine;
  let ann: number;
  before(async () => {
    engine = await bootEngine();
    ann = await individual(engine.call, 'Ann', 'Archer');
  });
  after(async () => engine?.t.close());

  it('create returns the saved record keyed by id, leaves as strings, nulls as ""', async () => {
    const result = await engine.call('Phone', 'create', {
      contact_id: ann,
      phone: '(555) 123-4567',
      phone_type_id: 'Mobile',
    });
    expect(Object.keys(result)).to.deep.equal(['is_error', 'version', 'count', 'id', 'values']);
    const saved = result.values[String(result.id)];
    expect(saved).to.include({
      id: String(result.id),
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
    const r = await engine.call('Contact', 'create', { id: ann, nick_name: 'Annie' });
    expect(r.values[String(ann)]).to.include({ nick_name: 'Annie', first_name: 'Ann' });
    expect((await engine.fail('Contact', 'create', { id: 'x1', nick_name: 'y' })).details).to.include({
      error_code: 2001,
    });
    expect((await engine.fail('Contact', 'create', { id: 99999, nick_name: 'y' })).message).to.equal(
      'Contact id 99999 not found.',
    );
  });

  it('missing mandatory fields: mandatory_missing with fields, wire key order', async () => {
    const err = await engine.fail('Email', 'create', { contact_id: ann });
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
    const long = await engine.fail('Contact', 'create', { contact_type: 'Individual', first_name: 'x'.repeat(65) });
    expect(long.details).to.include({ error_code: 2100, field: 'first_name', max_length: 64 });
    const bad = await engine.fail('Email', 'create', { contact_id: 'abc', email: 'a@b.c' });
    expect(bad.message).to.equal('contact_id is not a valid integer');
  });

  it('database constraint failures are API errors without SQL text', async () => {
    await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'U',
      external_identifier: 'UNIQ-1',
    });
    const dup = await engine.fail('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'V',
      external_identifier: 'UNIQ-1',
    });
    expect(dup.code).to.equal('E_CONFLICT');
    expect(dup.message).to.equal('DB Error: already exists');
    // The key's column is named, its value is not (a unique value may be a secret, and errors are logged).
    expect(dup.details).to.include({ error_code: 'already exists', field: 'external_identifier' });
    expect(JSON.stringify(dup.details)).not.to.include('UNIQ-1');
    const fk = await engine.fail('Email', 'create', { contact_id: 987654, email: 'orphan@example.org' });
    expect(fk.message).to.equal('DB Error: constraint violation');
    for (const err of [dup, fk]) expect(err.message).not.to.match(/insert|crm_|select/i);
  });

  it('options.match updates the matched record; match-mandatory refuses when nothing matches; ambiguity is an error', async () => {
    await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Mia',
      external_identifier: 'EXT-1',
    });
    const matched = await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      external_identifier: 'EXT-1',
      job_title: 'Boss',
      options: { match: 'external_identifier' },
    });
    expect(matched.values[String(matched.id)]).to.include({ first_name: 'Mia', job_title: 'Boss' });
    expect(await engine.call('Contact', 'getcount', { external_identifier: 'EXT-1' })).to.equal(1);
    const none = await engine.fail('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Z',
      external_identifier: 'EXT-2',
      options: { 'match-mandatory': ['external_identifier'] },
    });
    expect(none.message).to.equal('Failed to match existing record');
    await individual(engine.call, 'Twin', 'Same');
    await individual(engine.call, 'Twin', 'Same');
    expect(
      (
        await engine.fail('Contact', 'create', {
          contact_type: 'Individual',
          first_name: 'Twin',
          options: { match: 'first_name' },
        })
      ).message,
    ).to.equal('Ambiguous match criteria');
  });

  it('options.force_rollback runs the call then really rolls it back', async () => {
    const before = await engine.call('Contact', 'getcount', {});
    const result = await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Ghost',
      email: 'ghost@example.org',
      options: { force_rollback: 1 },
    });
    expect(result.count).to.equal(1);
    expect(await engine.call('Contact', 'getcount', {})).to.equal(before);
    expect(await engine.call('Email', 'getcount', { email: 'ghost@example.org' })).to.equal(0);
    const withChain = await engine.call('Contact', 'create', {
      contact_type: 'Individual',
      first_name: 'Ghost2',
      options: { force_rollback: 1 },
      'api.Email.create': { email: 'g2@example.org' },
    });
    expect(withChain.count).to.equal(1);
    expect(await engine.call('Contact', 'getcount', { first_name: 'Ghost2' })).to.equal(0);
  });

  it('delete: needs id, returns values 1, errors on unknown ids', async () => {
    const p = await engine.call('Phone', 'create', { contact_id: ann, phone: '999' });
    expect(await engine.call('Phone', 'delete', { id: p.id })).to.deep.equal({
      is_error: 0,
      version: 3,
      count: 1,
      values: 1,
    });
    expect((await engine.fail('Phone', 'delete', {})).details).to.include({ error_code: 'mandatory_missing' });
    expect((await engine.fail('Phone', 'delete', { id: p.id })).message).to.equal(`Could not delete entity id ${p.id}`);
  });

  it('replace creates, updates and deletes to match the given set', async () => {
    const w1 = await engine.call('Website', 'create', { contact_id: ann, url: 'https://one.example' });
    await engine.call('Website', 'create', { contact_id: ann, url: 'https://two.example' });
    const result = await engine.call('Website', 'replace', {
      contact_id: ann,
      values: [{ id: w1.id, url: 'https://one-updated.example' }, { url: 'https://three.example' }],
    });
    expect(result.count).to.equal(2);
    const urls = (
      await engine.call('Website', 'get', { contact_id: ann, sequential: 1, options: { sort: 'id' } })
    ).values.map((v: any) => v.url);
    expect(urls).to.deep.equal(['https://one-updated.example', 'https://three.example']);
    expect((await engine.fail('Website', 'replace', { contact_id: ann })).message).to.equal(
      'Mandatory key(s) missing from params array: values',
    );
  });

  it('validate returns a per-field error map without throwing', async () => {
    const r = await engine.call('Email', 'validate', { action: 'create', contact_id: 'abc' });
    expect(r.count).to.equal(1);
    expect(r.values[0].contact_id).to.deep.equal({
      message: 'contact_id is not a valid integer',
      code: 'incorrect_value',
    });
    expect(r.values[0].email.code).to.equal('mandatory_missing');
    const ok = await engine.call('Email', 'validate', { action: 'create', contact_id: ann, email: 'a@b.c' });
    expect(ok.values).to.deep.equal([{}]);
  });

  it('deprecated setvalue and update still work and say so', async () => {
    const setResult = await engine.call('Contact', 'setvalue', { id: ann, field: 'job_title', value: 'Chief' });
    expect(setResult.values).to.deep.equal({ id: String(ann), job_title: 'Chief' });
    expect(setResult.deprecated).to.be.a('string');
    expect((await engine.fail('Contact', 'setvalue', { id: ann, field: 'nope', value: 1 })).details).to.include({
      error_code: 'invalid_field',
    });
    expect(
      (await engine.fail('Contact', 'setvalue', { id: ann, field: 'gender_id', value: 'abc' })).details,
    ).to.include({
      error_code: 'NaN',
    });
    const updated = await engine.call('Contact', 'update', { id: ann, job_title: 'CEO' });
    expect(updated.values[String(ann)]).to.include({ job_title: 'CEO', first_name: 'Ann' });
    expect(updated.deprecated).to.be.a('string');
    expect((await engine.fail('Contact', 'update', { job_title: 'x' })).message).to.equal(
      'Mandatory parameter missing id',
    );
    expect((await engine.fail('Contact', 'update', { id: 424242 })).message).to.equal('No Contact with id 424242');
  });

  it('api3() in-process helper: same pipeline, caller transaction, typed error', async () => {
    const { api3, Api3CallError } = await import('../../../plugins/api3');
    const { createRequestScope } = await import('../../../kernel');
    const { principalWith } = await import('../../../host/testing');
    const scope = createRequestScope(
      engine.t.kernel.container,
      'helper',
      principalWith(['access CRM', 'add contacts'], ann),
    );
    try {
      const result = (await api3(scope, 'Contact', 'create', { contact_type: 'Individual', first_name: 'Helper' })) as {
        id: number;
      };
      expect(result.id).to.be.a('number');
      let caught: unknown;
      try {
        await api3(scope, 'Contact', 'delete', { id: result.id });
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(Api3CallError);
      expect((caught as InstanceType<typeof Api3CallError>).errorCode).to.equal('unauthorized');
      try {
        await api3(scope, 'Email', 'create', { contact_id: result.id });
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
    const r = await engine.call(
      'Contact',
      'getsingle',
      { id: 'user_contact_id', return: 'first_name' },
      principalWith(['access CRM'], ann),
    );
    expect(r.first_name).to.equal('Ann');
  });

  it('unknown entity or action is not-found', async () => {
    const err = await engine.fail('Nope', 'get', {});
    expect(err.details).to.include({ error_code: 'not-found' });
    expect(err.message).to.equal('API (Nope, get) does not exist (join the API team and implement it!)');
    expect((await engine.fail('contact', 'frobnicate', {})).details).to.include({ error_code: 'not-found' });
  });
});
