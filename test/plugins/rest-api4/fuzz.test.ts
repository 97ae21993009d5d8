/** Property: no params a caller can send ever produce a 5xx (or SQL text) from the APIv4 routes. */
import { expect } from 'chai';
import fc from 'fast-check';
import { bearer, bootApi4, type Api4Kernel, type User } from '../api4/helpers';

const FIELDS = [
  'id',
  'name',
  'tags',
  'score',
  'active',
  'contact_id',
  'contact_id.display_name',
  'contact_id.id',
  'secret_token',
  'first_name',
  'contact_type',
  'contact_sub_type',
  'is_deleted',
  'email',
  'birth_date',
  'created_date',
  'row_count',
  '*',
  'contact_id.*',
  'nope',
  'a.b.c.d.e.f',
  '',
  ' id',
  'id;--',
];
const OPS = [
  '=',
  '!=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  'IN',
  'NOT IN',
  'LIKE',
  'NOT LIKE',
  'BETWEEN',
  'NOT BETWEEN',
  'IS NULL',
  'IS NOT NULL',
  'IS EMPTY',
  'IS NOT EMPTY',
  'CONTAINS',
  'NOT CONTAINS',
  'like',
  'REGEXP',
  '',
  ';',
];

const scalar = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    '2024-01-31',
    '2024-13-45',
    '9999999999999999999',
    '-1',
    '1e400',
    '\u0000',
    '%',
    '_',
    "'; drop table crm_contact; --",
    '$id',
  ),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELDS), scalar, { maxKeys: 2 }),
);
const clause: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...OPS), value),
    fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...OPS)),
    value,
  ),
  group: fc.tuple(fc.constantFrom('OR', 'AND', 'NOT', 'XOR'), fc.array(tie('clause'), { maxLength: 3 })),
  clause: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('group')),
})).clause;
const record = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 });
const params = fc.record(
  {
    select: fc.oneof(fc.array(fc.constantFrom(...FIELDS), { maxLength: 4 }), value),
    where: fc.oneof(fc.array(clause, { maxLength: 3 }), value),
    orderBy: fc.oneof(fc.dictionary(fc.constantFrom(...FIELDS), fc.constantFrom('ASC', 'desc', 'up', '')), value),
    limit: fc.oneof(fc.nat(50), value),
    offset: fc.oneof(fc.nat(5), value),
    values: fc.oneof(record, value),
    records: fc.oneof(fc.array(record, { maxLength: 3 }), value),
    defaults: record,
    match: fc.array(fc.constantFrom(...FIELDS), { maxLength: 2 }),
    chain: fc.oneof(
      fc.dictionary(
        fc.string({ maxLength: 4 }),
        fc.tuple(fc.constantFrom('Contact', 'Email', 'Nope'), fc.constantFrom('get', 'create', 'x'), record),
      ),
      value,
    ),
    loadOptions: fc.oneof(fc.boolean(), value),
    action: fc.oneof(fc.constantFrom('get', 'create', 'delete'), value),
    checkPermissions: value,
  },
  { requiredKeys: [] },
);

describe('rest-api4: no params produce a 5xx (property)', () => {
  let k: Api4Kernel;
  let admin: User;
  before(async () => {
    k = await bootApi4();
    admin = await k.user('boss', ['*']);
    const created = await k
      .req()
      .post('/crm/ajax/api4/Contact/create')
      .set(bearer(admin.key))
      .type('form')
      .send({ params: JSON.stringify({ values: { contact_type: 'Individual', first_name: 'Fuzz' } }) });
    await k
      .req()
      .post('/crm/ajax/api4/Api4Thing/create')
      .set(bearer(admin.key))
      .type('form')
      .send({
        params: JSON.stringify({ values: { name: 'thing', contact_id: created.body.values[0].id, tags: ['a'] } }),
      });
  });
  after(async () => k?.t.close());

  it('single calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('Contact', 'Email', 'Api4Thing', 'Nope', 'Contact%20x'),
        fc.constantFrom(
          'get',
          'create',
          'update',
          'save',
          'delete',
          'replace',
          'getFields',
          'getActions',
          'checkAccess',
          'autocomplete',
          'frob',
        ),
        params,
        fc.option(
          fc.oneof(fc.constantFrom('id', 'name', '0', '7', '{"id":"name"}', '{"a":1}'), fc.string({ maxLength: 5 })),
          { nil: undefined },
        ),
        async (entity, action, p, index) => {
          const res = await k
            .req()
            .post(`/crm/ajax/api4/${entity}/${action}`)
            .set(bearer(admin.key))
            .type('form')
            .send({ params: JSON.stringify(p), ...(index === undefined ? {} : { index }) });
          expect(res.status, `${entity}.${action} ${JSON.stringify(p)} → ${res.text.slice(0, 300)}`).to.be.below(500);
          expect(res.type).to.equal('application/json');
          expect(res.text).not.to.match(/select .* from|insert into|syntax error/i);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('multi-calls and raw bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.json(),
          fc
            .dictionary(
              fc.string({ maxLength: 3 }),
              fc.tuple(
                fc.constantFrom('Contact', 'Api4Thing', 'x'),
                fc.constantFrom('get', 'getFields', 'delete'),
                params,
              ),
            )
            .map((x) => JSON.stringify(x)),
        ),
        async (calls) => {
          const res = await k.req().post('/crm/ajax/api4').set(bearer(admin.key)).type('form').send({ calls });
          expect(res.status, `${calls} → ${res.text.slice(0, 300)}`).to.be.below(500);
          const raw = await k
            .req()
            .post('/crm/ajax/api4/Contact/get')
            .set(bearer(admin.key))
            .type('form')
            .send({ params: calls });
          expect(raw.status, `${calls} → ${raw.text.slice(0, 300)}`).to.be.below(500);
        },
      ),
      { numRuns: 60 },
    );
  });
});
