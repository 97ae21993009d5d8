/** The APIv4 engine in-process: api4() helper, types, operators, nested groups, v4-only entities, checkPermissions. */
import { expect } from 'chai';
import { createRequestScope, isKernelError, type KernelError } from '../../../kernel';
import { principalWith } from '../../../host/testing';
import { api4, Api4CallError } from '../../../plugins/api4';
import { ADMIN, bootApi4, type Api4Kernel } from './helpers';

describe('api4 engine', () => {
  let k: Api4Kernel;
  let ann: number;
  const fail = async (
    entity: string,
    action: string,
    params: Record<string, unknown>,
    principal = ADMIN,
  ): Promise<KernelError> => {
    try {
      const r = await k.call(entity, action, params, principal);
      throw new Error(`expected a failure, got ${JSON.stringify(r).slice(0, 200)}`);
    } catch (err) {
      if (!isKernelError(err)) throw err;
      return err;
    }
  };
  const names = async (where: unknown[]) =>
    (await k.call('Api4Thing', 'get', { select: ['name'], where, orderBy: { name: 'ASC' } })).values.map((r) => r.name);

  before(async () => {
    k = await bootApi4();
    ann = (
      await k.call('Contact', 'create', {
        values: { contact_type: 'Individual', first_name: 'Ann', last_name: 'Archer' },
      })
    ).values[0].id as number;
    await k.call('Api4Thing', 'save', {
      records: [
        { name: 'alpha', tags: ['red', 'blue'], score: 1.5, contact_id: ann, secret_token: 'tok-alpha' },
        { name: 'beta', tags: ['blue'], score: 2, active: false },
        { name: 'gamma_1', score: null, tags: [] },
        { name: '100%', tags: ['a_b'] },
      ],
    });
  });
  after(async () => k?.t.close());

  it('serves APIv4-only entities with v4 actions only', async () => {
    expect(k.t.kernel.actions.get(4, 'Api4Thing', 'get')).to.not.equal(undefined);
    expect(k.t.kernel.actions.get(3, 'Api4Thing', 'get')).to.equal(undefined);
    expect(k.t.kernel.actions.get(4, 'Contact', 'getFields')).to.not.equal(undefined);
  });

  it('keeps JSON types: ints, floats, booleans, lists, null; secrets only for their holders and never echoed by writes', async () => {
    const result = await k.call('Api4Thing', 'get', { select: ['*', 'secret_token'], where: [['name', '=', 'alpha']] });
    expect(result.values[0]).to.deep.include({
      name: 'alpha',
      tags: ['red', 'blue'],
      score: 1.5,
      active: true,
      contact_id: ann,
      secret_token: 'tok-alpha',
    });
    expect(result.values[0].id).to.be.a('number');
    const beta = await k.call('Api4Thing', 'get', { where: [['name', '=', 'beta']] });
    expect(beta.values[0]).to.deep.include({ active: false, score: 2 });
    expect(beta.values[0]).not.to.have.property('secret_token');
    const staff = principalWith(['access CRM'], ann);
    const theirs = await k.call(
      'Api4Thing',
      'get',
      { select: ['name', 'secret_token'], where: [['name', '=', 'alpha']] },
      staff,
    );
    expect(theirs.values).to.deep.equal([{ name: 'alpha' }]);
    const fields = await k.call('Api4Thing', 'getFields', {}, staff);
    expect(fields.values.map((f) => f.name)).not.to.include('secret_token');
    const written = await k.call('Api4Thing', 'create', { values: { name: 'delta', secret_token: 'tok-delta' } });
    expect(JSON.stringify(written)).not.to.include('tok-delta');
    await k.call('Api4Thing', 'delete', { where: [['name', '=', 'delta']] });
  });

  it('operators: LIKE (case-insensitive), [NOT] CONTAINS on serialized lists, IS EMPTY, NOT BETWEEN, literal wildcards', async () => {
    expect(await names([['name', 'LIKE', 'ALP%']])).to.deep.equal(['alpha']);
    expect(await names([['tags', 'CONTAINS', 'blue']])).to.deep.equal(['alpha', 'beta']);
    expect(await names([['tags', 'NOT CONTAINS', 'red']])).to.deep.equal(['100%', 'beta', 'gamma_1']);
    expect(await names([['tags', 'IS EMPTY']])).to.deep.equal(['gamma_1']);
    expect(
      await names([
        ['score', 'IS NOT NULL'],
        ['score', 'NOT BETWEEN', [1, 1.9]],
      ]),
    ).to.deep.equal(['beta']);
    expect(await names([['name', 'CONTAINS', '0%']])).to.deep.equal(['100%']);
    expect(await names([['tags', 'CONTAINS', 'a_b']])).to.deep.equal(['100%']);
    expect(await names([['active', '=', false]])).to.deep.equal(['beta']);
    expect(await names([['score', '>=', '1.6']])).to.deep.equal(['beta']);
  });

  it('nested groups to several levels; NOT of an OR', async () => {
    expect(
      await names([
        [
          'NOT',
          [
            [
              'OR',
              [
                ['name', '=', 'alpha'],
                ['name', '=', 'beta'],
              ],
            ],
          ],
        ],
      ]),
    ).to.deep.equal(['100%', 'gamma_1']);
    expect(
      await names([
        [
          'OR',
          [
            [
              'AND',
              [
                ['active', '=', true],
                [
                  'OR',
                  [
                    ['score', '>', 1],
                    ['name', '=', '100%'],
                  ],
                ],
              ],
            ],
            ['name', '=', 'beta'],
          ],
        ],
      ]),
    ).to.deep.equal(['100%', 'alpha', 'beta']);
    expect(await names([['OR', []]])).to.deep.equal([]);
    let deep: unknown[] = [['name', '=', 'alpha']];
    for (let i = 0; i < 30; i++) deep = [['AND', deep]];
    expect((await fail('Api4Thing', 'get', { where: deep })).code).to.equal('E_INVALID_PARAMS');
  });

  it('joins: select, where and orderBy over the foreign key, fk.* expands', async () => {
    const r = await k.call('Api4Thing', 'get', {
      select: ['name', 'contact_id.first_name'],
      where: [['contact_id.last_name', '=', 'Archer']],
      orderBy: { 'contact_id.first_name': 'ASC' },
    });
    expect(r.values).to.deep.equal([{ name: 'alpha', 'contact_id.first_name': 'Ann' }]);
    const star = await k.call('Api4Thing', 'get', { select: ['contact_id.*'], where: [['name', '=', 'alpha']] });
    expect(star.values[0]).to.include({ 'contact_id.first_name': 'Ann', 'contact_id.id': ann });
  });

  it('row access applies to joined entities too: a hidden joined contact reads as null and cannot be filtered on', async () => {
    const other = principalWith(['access CRM', 'view my contact'], 999999);
    const result = await k.call(
      'Api4Thing',
      'get',
      { select: ['name', 'contact_id.first_name'], where: [['name', '=', 'alpha']] },
      other,
    );
    expect(result.values).to.deep.equal([{ name: 'alpha', 'contact_id.first_name': null }]);
    expect(
      (
        await k.call(
          'Api4Thing',
          'get',
          { select: ['row_count'], where: [['contact_id.first_name', '=', 'Ann']] },
          other,
        )
      ).countMatched,
    ).to.equal(0);
    const self = principalWith(['access CRM', 'view my contact'], ann);
    expect(
      (await k.call('Api4Thing', 'get', { select: ['contact_id.first_name'], where: [['name', '=', 'alpha']] }, self))
        .values,
    ).to.deep.equal([{ 'contact_id.first_name': 'Ann' }]);
  });

  it('api4() for plugins: caller principal and scope; typed error with code and status', async () => {
    const scope = createRequestScope(k.t.kernel.container, 'helper', principalWith(['access CRM'], ann));
    try {
      const result = await api4(scope, 'Api4Thing', 'get', { select: ['name'], where: [['name', '=', 'beta']] });
      expect(result).to.include({ entity: 'Api4Thing', action: 'get', version: 4, count: 1 });
      try {
        await api4(scope, 'Api4Thing', 'get', { where: [['nope', '=', 1]] });
        expect.fail('should throw');
      } catch (err) {
        expect(err).to.be.instanceOf(Api4CallError);
        expect((err as Api4CallError).code).to.equal('E_INVALID_PARAMS');
        expect((err as Api4CallError).status).to.equal(400);
      }
      try {
        await api4(scope, 'Contact', 'create', { values: { contact_type: 'Individual' } });
        expect.fail('should throw');
      } catch (err) {
        expect((err as Api4CallError).message).to.equal('Authorization failed: CRM APIv4 (Contact::create)');
        expect((err as Api4CallError).status).to.equal(403);
      }
      // checkPermissions: false runs trusted (in-process only).
      const trusted = await api4(scope, 'Api4Thing', 'getFields', { checkPermissions: false, select: ['name'] });
      expect(trusted.values.map((f) => f.name)).to.include('secret_token');
    } finally {
      await scope.dispose();
    }
  });

  it('a secret field cannot be written by a caller who may not read it', async () => {
    const staff = principalWith(['access CRM'], ann);
    const err = await fail(
      'Api4Thing',
      'update',
      { where: [['name', '=', 'alpha']], values: { secret_token: 'hijack' } },
      staff,
    );
    expect(err.code).to.equal('E_INVALID_PARAMS');
    expect(err.message).to.equal("Invalid field 'secret_token' in values");
    const r = await k.call('Api4Thing', 'get', { select: ['secret_token'], where: [['name', '=', 'alpha']] });
    expect(r.values).to.deep.equal([{ secret_token: 'tok-alpha' }]);
  });

  it('getFields and getActions filter with where and select; bare results of specific actions are wrapped', async () => {
    const fields = await k.call('Api4Thing', 'getFields', {
      where: [
        ['name', 'IN', ['score', 'active']],
        [
          'OR',
          [
            ['data_type', '=', 'Float'],
            ['data_type', 'LIKE', 'bool%'],
          ],
        ],
      ],
      select: ['name', 'data_type'],
    });
    expect(fields.values).to.deep.equal([
      { name: 'score', data_type: 'Float' },
      { name: 'active', data_type: 'Boolean' },
    ]);
    expect((await fail('Api4Thing', 'getFields', { where: [['name', 'SOUNDS', 'x']] })).code).to.equal(
      'E_INVALID_PARAMS',
    );
    const actions = await k.call('Api4Thing', 'getActions', { where: [['name', '=', 'get']], select: ['name'] });
    expect(actions.values).to.deep.equal([{ name: 'get' }]);
    const list = await k.call('Api4Fixture', 'getList', {});
    expect(list).to.deep.equal({
      entity: 'Api4Fixture',
      action: 'getList',
      version: 4,
      values: [{ a: 1 }, { a: 2 }],
      count: 2,
      countFetched: 2,
    });
  });

  it('entity taps: beforeGet conditions on reads and writes; explicit save permission; JSON text; read-only fields ignored', async () => {
    const staff = principalWith(['access CRM'], ann);
    const hidden = await k.call('Api4Thing', 'create', { values: { name: 'hidden', data: { a: [1, 2] } } });
    expect(hidden.values[0].data).to.equal('{"a":[1,2]}');
    expect(await names([['name', '=', 'hidden']])).to.deep.equal(['hidden']);
    expect((await k.call('Api4Thing', 'get', { where: [['name', '=', 'hidden']] }, staff)).count).to.equal(0);
    expect(
      (await k.call('Api4Thing', 'update', { where: [['name', '=', 'hidden']], values: { score: 5 } }, staff)).count,
    ).to.equal(0);
    expect((await k.call('Api4Thing', 'delete', { where: [['name', '=', 'hidden']] }, staff)).count).to.equal(0);
    expect((await fail('Api4Thing', 'save', { records: [{ name: 'x' }] }, staff)).message).to.equal(
      'Authorization failed: CRM APIv4 (Api4Thing::save)',
    );
    const ro = await k.call('Contact', 'update', {
      where: [['id', '=', ann]],
      values: { sort_name: 'Zzz', nick_name: 'A' },
    });
    expect(ro.values[0]).to.include({ sort_name: 'Archer, Ann', nick_name: 'A' });
    await k.call('Api4Thing', 'delete', { where: [['name', '=', 'hidden']] });
  });

  it('update/save/delete validate values strictly and never touch unmatched rows', async () => {
    expect((await fail('Api4Thing', 'create', { values: { name: 'x', score: 'lots' } })).message).to.match(
      /score: expected a number/,
    );
    expect((await fail('Api4Thing', 'create', { values: { name: 'x', nope: 1 } })).message).to.match(
      /Invalid field 'nope'/,
    );
    expect((await fail('Api4Thing', 'create', { values: { name: 'x', active: 'maybe' } })).message).to.match(
      /expected a boolean/,
    );
    expect((await fail('Api4Thing', 'save', { records: [{ id: 999999, name: 'ghost' }] })).message).to.match(
      /not found/,
    );
    const none = await k.call('Api4Thing', 'update', { where: [['name', '=', 'nobody']], values: { score: 9 } });
    expect(none.count).to.equal(0);
    const match = await k.call('Api4Thing', 'save', { match: ['name'], records: [{ name: 'beta', score: 3 }] });
    expect(match.values[0]).to.include({ name: 'beta', score: 3, active: false });
    expect(await names([])).to.deep.equal(['100%', 'alpha', 'beta', 'gamma_1']);
  });
});
