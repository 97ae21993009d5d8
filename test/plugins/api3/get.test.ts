import { expect } from 'chai';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 get family: actions, options, operators, joins', () => {
  let engine: Engine;
  const ids: Record<string, number> = {};
  before(async () => {
    engine = await bootEngine();
    ids.ann = await individual(engine.call, 'Ann', 'Archer', {
      gender_id: 'Female',
      birth_date: '1980-05-01',
      email: 'ann@example.org',
    });
    ids.bob = await individual(engine.call, 'Bob', 'Baker', { gender_id: 2, birth_date: '1990-01-15' });
    ids.cat = await individual(engine.call, 'Cat', 'Cooper', { nick_name: 'Kitty' });
    ids.acme = (
      await engine.call('Contact', 'create', { contact_type: 'Organization', organization_name: 'Acme Corp' })
    ).id;
    for (let i = 0; i < 30; i++)
      await engine.call('Email', 'create', { contact_id: ids.bob, email: `bob${i}@example.org` });
  });
  after(async () => engine?.t.close());

  describe('envelope', () => {
    it('keys values by id, strings leaves, sets top-level id only for one result', async () => {
      const r = await engine.call('Contact', 'get', { id: ids.ann, return: 'first_name,gender_id' });
      expect(Object.keys(r)).to.deep.equal(['is_error', 'version', 'count', 'id', 'values']);
      expect(r).to.include({ is_error: 0, version: 3, count: 1, id: ids.ann });
      expect(r.values[String(ids.ann)]).to.deep.equal({ first_name: 'Ann', gender_id: '1', id: String(ids.ann) });
      const many = await engine.call('Contact', 'get', { contact_type: 'Individual', return: 'id' });
      expect(many.count).to.equal(3);
      expect(many).not.to.have.property('id');
    });
    it('returns values: [] when empty, in both modes', async () => {
      expect((await engine.call('Contact', 'get', { first_name: 'Nobody' })).values).to.deep.equal([]);
      expect((await engine.call('Contact', 'get', { first_name: 'Nobody', sequential: 1 })).values).to.deep.equal([]);
    });
    it('sequential=1 gives a list; default Contact.get keys follow the reference order and end with id', async () => {
      const result = await engine.call('Contact', 'get', { id: ids.ann, sequential: 1 });
      expect(result.values).to.be.an('array').with.length(1);
      const keys = Object.keys(result.values[0]);
      expect(keys[0]).to.equal('contact_id');
      expect(keys[keys.length - 1]).to.equal('id');
      expect(result.values[0]).to.include({
        contact_id: String(ids.ann),
        sort_name: 'Archer, Ann',
        display_name: 'Ann Archer',
        email: 'ann@example.org',
        gender: 'Female',
        contact_is_deleted: '0',
        street_address: '',
      });
      expect(result.values[0]).not.to.have.property('api_key');
    });
    it('DAO-style entities omit NULL columns', async () => {
      const r = await engine.call('Email', 'get', { contact_id: ids.ann, sequential: 1 });
      expect(r.values[0]).not.to.have.property('hold_date');
      expect(r.values[0]).to.include({ email: 'ann@example.org', is_primary: '1' });
    });
  });

  describe('options', () => {
    it('limit defaults to 25; 0 means no limit; legacy spellings work', async () => {
      expect((await engine.call('Email', 'get', { contact_id: ids.bob })).count).to.equal(25);
      expect((await engine.call('Email', 'get', { contact_id: ids.bob, options: { limit: 0 } })).count).to.equal(30);
      expect((await engine.call('Email', 'get', { contact_id: ids.bob, option_limit: 3 })).count).to.equal(3);
      expect((await engine.call('Email', 'get', { contact_id: ids.bob, 'option.limit': 4 })).count).to.equal(4);
      expect((await engine.call('Email', 'get', { contact_id: ids.bob, rowCount: 5 })).count).to.equal(5);
      // options.limit wins over rowCount
      expect(
        (await engine.call('Email', 'get', { contact_id: ids.bob, rowCount: 5, options: { limit: 2 } })).count,
      ).to.equal(2);
    });
    it('offset and sort (field, direction, dotted join)', async () => {
      const result = await engine.call('Email', 'get', {
        contact_id: ids.bob,
        sequential: 1,
        return: 'email',
        options: { sort: 'email DESC', limit: 2, offset: 1 },
      });
      expect(result.values.map((v: any) => v.email)).to.deep.equal(['bob8@example.org', 'bob7@example.org']);
      const sequential = await engine.call('Contact', 'get', {
        contact_type: 'Individual',
        sequential: 1,
        return: 'sort_name',
        options: { sort: 'sort_name DESC' },
      });
      expect(sequential.values.map((v: any) => v.sort_name)).to.deep.equal([
        'Cooper, Cat',
        'Baker, Bob',
        'Archer, Ann',
      ]);
      const j = await engine.call('Email', 'get', {
        email: { IN: ['ann@example.org', 'bob0@example.org'] },
        sequential: 1,
        return: 'email',
        sort: 'contact_id.sort_name DESC',
      });
      expect(j.values.map((v: any) => v.email)).to.deep.equal(['bob0@example.org', 'ann@example.org']);
    });
    it('rejects an unknown sort field or SQL in sort before any SQL runs', async () => {
      const n = await engine.countQueries(async () => {
        const err = await engine.fail('Contact', 'get', { options: { sort: 'nope' } });
        expect(err.message).to.equal("Unknown field specified for sort. Cannot order by 'nope'");
        expect(err.details).to.include({ error_code: 0, entity: 'Contact', action: 'get' });
        const sql = await engine.fail('Contact', 'get', { options: { sort: 'id; DROP TABLE crm_contact' } });
        expect(sql.message).to.match(/Cannot order by/);
        expect((await engine.fail('Contact', 'get', { sort: '(SELECT 1)' })).message).to.equal(
          'invalid string in sort options',
        );
      });
      expect(n).to.equal(0);
    });
    it('return as string, array and return.x; unknown return fields are dropped; id always returned', async () => {
      const a = await engine.call('Contact', 'getsingle', { id: ids.ann, return: 'first_name, last_name' });
      expect(a).to.deep.equal({ first_name: 'Ann', last_name: 'Archer', id: String(ids.ann) });
      const b = await engine.call('Contact', 'getsingle', { id: ids.ann, return: ['last_name', 'bogus'] });
      expect(b).to.deep.equal({ last_name: 'Archer', id: String(ids.ann) });
      const c = await engine.call('Contact', 'getsingle', {
        id: ids.ann,
        'return.nick_name': 1,
        'return.first_name': 1,
      });
      expect(Object.keys(c).sort()).to.deep.equal(['first_name', 'id', 'nick_name']);
    });
    it('options.metadata=["fields"] appends metadata.fields after values', async () => {
      const r = await engine.call('LocationType', 'get', { name: 'Home', options: { metadata: ['fields'] } });
      expect(Object.keys(r)).to.deep.equal(['is_error', 'version', 'count', 'id', 'values', 'metadata']);
      expect(r.metadata.fields.name).to.include({ name: 'name', type: 2 });
    });
    it('format.is_success and format.only_id reduce the result', async () => {
      expect(await engine.call('Contact', 'get', { id: ids.ann, 'format.is_success': 1 })).to.equal(1);
      expect(await engine.call('Contact', 'get', { id: 'bad', format: { is_success: 1 } })).to.equal(0);
      expect(await engine.call('Contact', 'create', { id: ids.cat, nick_name: 'Kitty', 'format.only_id': 1 })).to.equal(
        ids.cat,
      );
    });
    it('is_count makes get a count; a non-integer limit is refused', async () => {
      expect(await engine.call('Email', 'get', { contact_id: ids.bob, options: { is_count: 1 } })).to.equal(30);
      const err = await engine.fail('Email', 'get', { options: { limit: 'ten' } });
      expect(err.details).to.include({ error_code: 2001 });
    });
  });

  describe('filters', () => {
    const names = async (params: Record<string, unknown>) =>
      (
        await engine.call('Contact', 'get', {
          contact_type: 'Individual',
          return: 'first_name',
          sequential: 1,
          options: { sort: 'first_name' },
          ...params,
        })
      ).values.map((v: any) => v.first_name);
    it('every operator', async () => {
      expect(await names({ first_name: 'Bob' })).to.deep.equal(['Bob']);
      expect(await names({ first_name: { '=': 'Bob' } })).to.deep.equal(['Bob']);
      expect(await names({ first_name: { '!=': 'Bob' } })).to.deep.equal(['Ann', 'Cat']);
      expect(await names({ first_name: { '<>': 'Bob' } })).to.deep.equal(['Ann', 'Cat']);
      expect(await names({ id: { '>': ids.ann } })).to.deep.equal(['Bob', 'Cat']);
      expect(await names({ id: { '>=': ids.bob } })).to.deep.equal(['Bob', 'Cat']);
      expect(await names({ id: { '<': ids.bob } })).to.deep.equal(['Ann']);
      expect(await names({ id: { '<=': ids.bob } })).to.deep.equal(['Ann', 'Bob']);
      expect(await names({ first_name: { IN: ['Ann', 'Cat'] } })).to.deep.equal(['Ann', 'Cat']);
      expect(await names({ first_name: { 'NOT IN': ['Ann', 'Cat'] } })).to.deep.equal(['Bob']);
      expect(await names({ last_name: { LIKE: 'c%' } })).to.deep.equal(['Cat']);
      expect(await names({ last_name: { 'NOT LIKE': '%er' } })).to.deep.equal([]);
      expect(await names({ birth_date: { BETWEEN: ['1979-01-01', '1985-01-01'] } })).to.deep.equal(['Ann']);
      expect(await names({ birth_date: { 'NOT BETWEEN': ['1979-01-01', '1985-01-01'] } })).to.deep.equal(['Bob']);
      expect(await names({ birth_date: { 'IS NULL': 1 } })).to.deep.equal(['Cat']);
      expect(await names({ birth_date: { 'IS NOT NULL': 1 } })).to.deep.equal(['Ann', 'Bob']);
    });
    it('options.or groups (list, list of lists, string) and its error', async () => {
      expect(
        await names({ first_name: 'Ann', last_name: 'Baker', options: { or: [['first_name', 'last_name']] } }),
      ).to.deep.equal(['Ann', 'Bob']);
      expect(
        await names({ first_name: 'Ann', last_name: 'Baker', options: { or: ['first_name', 'last_name'] } }),
      ).to.deep.equal(['Ann', 'Bob']);
      expect(
        await names({ first_name: 'Ann', last_name: 'Baker', options: { or: 'first_name,last_name' } }),
      ).to.deep.equal(['Ann', 'Bob']);
      const err = await engine.fail('Contact', 'get', {
        first_name: 'Ann',
        options: { or: [['first_name', 'nick_name']] },
      });
      expect(err.message).to.equal("'nick_name' specified in OR group but not added to params");
    });
    it('option fields accept values, names and labels; a bad option is error 2001', async () => {
      expect(await names({ gender_id: 1 })).to.deep.equal(['Ann']);
      expect(await names({ gender_id: 'Male' })).to.deep.equal(['Bob']);
      expect(await names({ gender: 'Female' })).to.deep.equal(['Ann']);
      const err = await engine.fail('Contact', 'get', { gender_id: 'Martian' });
      expect(err.message).to.equal("'Martian' is not a valid option for field gender_id");
      expect(err.details).to.include({ error_code: 2001, error_field: 'gender_id' });
    });
    it('ignores unknown filter keys and null values; aliases and unique names work', async () => {
      expect(await names({ no_such_field: 'x', first_name: null })).to.deep.equal(['Ann', 'Bob', 'Cat']);
      expect(await names({ contact_id: ids.cat })).to.deep.equal(['Cat']);
      expect(await names({ contact_is_deleted: 0, individual_prefix_id: { 'IS NULL': 1 } })).to.deep.equal([
        'Ann',
        'Bob',
        'Cat',
      ]);
    });
    it('name search matches sort_name, nick_name and email; spaces are wildcards', async () => {
      expect(await names({ sort_name: 'arch' })).to.deep.equal(['Ann']);
      expect(await names({ sort_name: 'kitty' })).to.deep.equal(['Cat']);
      expect(await names({ display_name: 'ann arch' })).to.deep.equal(['Ann']);
      expect(await names({ sort_name: 'ann@example' })).to.deep.equal(['Ann']);
    });
    it('dot-notation joins in filters and return', async () => {
      const r = await engine.call('Email', 'get', {
        'contact_id.first_name': 'Ann',
        return: 'email,contact_id.display_name,contact_id.gender_id',
        sequential: 1,
      });
      expect(r.values).to.deep.equal([
        {
          id: r.values[0].id,
          email: 'ann@example.org',
          'contact_id.display_name': 'Ann Archer',
          'contact_id.gender_id': '1',
        },
      ]);
    });
    it('more than 4 joins is unauthorized', async () => {
      const err = await engine.fail('Email', 'get', {
        'contact_id.employer_id.employer_id.employer_id.employer_id.id': 1,
      });
      expect(err.message).to.equal(
        'Maximum number of joins exceeded in parameter contact_id.employer_id.employer_id.employer_id.employer_id.id',
      );
      expect(err.details).to.include({ error_code: 'unauthorized' });
    });
    it('bad input is a clear error that never reaches SQL', async () => {
      const queries = await engine.countQueries(async () => {
        expect((await engine.fail('Contact', 'get', { id: 'abc' })).details).to.include({
          error_code: 2001,
          error_field: 'id',
        });
        expect((await engine.fail('Contact', 'get', { id: '1 OR 1=1' })).message).to.equal('id is not a valid integer');
        expect((await engine.fail('Contact', 'get', { id: { 'DROP TABLE': 1 } })).message).to.match(
          /is not a valid operator for field id/,
        );
        expect((await engine.fail('Contact', 'get', { id: { IN: [] } })).message).to.equal('invalid criteria for IN');
        expect((await engine.fail('Contact', 'get', { id: { BETWEEN: [1, ''] } })).message).to.equal(
          'invalid criteria for BETWEEN',
        );
        expect((await engine.fail('Contact', 'get', { birth_date: 'yesterday-ish' })).message).to.equal(
          'birth_date is not a valid date: yesterday-ish',
        );
      });
      expect(queries).to.equal(0);
    });
    it('control params are checked by the validate step, worded as the reference words them', async () => {
      const queries = await engine.countQueries(async () => {
        for (const params of [
          { options: { limit: 'ten' } },
          { 'option.limit': -1 },
          { rowCount: '5; DROP TABLE crm_contact' },
        ]) {
          const err = await engine.fail('Contact', 'get', params);
          expect(err.message).to.equal('limit is not a valid integer');
          expect(err.details).to.include({ error_code: 2001, error_field: 'limit' });
        }
        expect((await engine.fail('Contact', 'get', { options: { offset: 'x' } })).message).to.equal(
          'offset is not a valid integer',
        );
        const flag = await engine.fail('Contact', 'get', { sequential: { nested: 1 } });
        expect(flag.code).to.equal('E_INVALID_PARAMS');
        expect(flag.message).to.contain('sequential');
      });
      expect(queries).to.equal(0);
      // The lenient spellings still work: digits in a string, empty (no limit).
      expect(await names({ options: { limit: '2' } })).to.have.length(2);
      expect(await names({ options: { limit: '' } })).to.have.length(3);
    });
    it('a filter value with quotes is bound, not interpolated', async () => {
      expect(await names({ last_name: "O'Brien'); DELETE FROM crm_contact; --" })).to.deep.equal([]);
      expect(await names({})).to.have.length(3);
    });
  });

  describe('getsingle, getvalue, getcount', () => {
    it('getsingle returns the bare record, or a returned error with count', async () => {
      const r = await engine.call('Contact', 'getsingle', { id: ids.bob, return: 'first_name' });
      expect(r).to.deep.equal({ first_name: 'Bob', id: String(ids.bob) });
      const err = await engine.fail('Contact', 'getsingle', { contact_type: 'Individual' });
      expect(err.message).to.equal('Expected one Contact but found 3');
      expect(err.details).to.deep.equal({ count: 3, api3Shape: 'returned' });
      expect((await engine.fail('Contact', 'getsingle', { first_name: 'Zed' })).message).to.equal(
        'Expected one Contact but found 0',
      );
    });
    it('getvalue returns a scalar; errors for missing return and unset fields', async () => {
      expect(await engine.call('Contact', 'getvalue', { id: ids.bob, return: 'last_name' })).to.equal('Baker');
      expect(await engine.call('Contact', 'getvalue', { id: ids.bob, return: 'gender' })).to.equal('Male');
      expect(await engine.call('Contact', 'getvalue', { id: ids.bob, return: 'contact_is_deleted' })).to.equal('0');
      const missing = await engine.fail('Contact', 'getvalue', { id: ids.bob });
      expect(missing.message).to.equal('missing param return=field you want to read the value of');
      expect(missing.details).to.include({ error_type: 'mandatory_missing', missing_param: 'return' });
      const unset = await engine.fail('Email', 'getvalue', { contact_id: ids.ann, return: 'hold_date' });
      expect(unset.message).to.equal('field hold_date unset or not existing');
    });
    it('getcount ignores the limit and returns an integer', async () => {
      expect(await engine.call('Email', 'getcount', { contact_id: ids.bob, options: { limit: 2 } })).to.equal(30);
      expect(await engine.call('Contact', 'getcount', {})).to.equal(4);
    });
  });
});

describe('api3 get: paging bounds (a fuzz finding)', () => {
  let e: Engine;
  before(async () => {
    e = await bootEngine();
  });
  after(() => e.t.close());

  it('refuses a negative offset or limit as an invalid integer, never an internal error', async () => {
    for (const options of [{ offset: -1 }, { limit: -5 }, { offset: '-3' }]) {
      const err = await e.fail('Contact', 'get', { options });
      expect(err.code, JSON.stringify(options)).to.equal('E_INVALID_PARAMS');
      expect(err.details?.error_code).to.equal(2001);
    }
  });
});
