import { expect } from 'chai';
import fc from 'fast-check';
import { isKernelError } from '../../../kernel';
import { bootEngine, individual, type Engine } from './helpers';

/** Whatever a caller sends, the engine answers or refuses with a clear API error: never an internal/DB error. */
describe('api3 fuzz: arbitrary params never reach SQL unbound nor give internal errors', () => {
  let engine: Engine;
  before(async () => {
    engine = await bootEngine();
    await individual(engine.call, 'Ann', 'Archer', { email: 'ann@example.org' });
  });
  after(async () => engine?.t.close());

  const keys = fc.constantFrom(
    'id',
    'contact_id',
    'first_name',
    'gender_id',
    'gender',
    'birth_date',
    'is_deleted',
    'email',
    'sort_name',
    'contact_sub_type',
    'employer_id.display_name',
    'employer_id.employer_id.id',
    'current_employer',
    'nope',
    'options',
    'return',
    'sort',
    'sequential',
    'api.Email.get',
    'contact_type',
    'external_identifier',
    'do_not_email',
    'birth_date_low',
    'location_type_id',
  );
  const scalar = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(
      "'; drop table crm_contact; --",
      '1 OR 1=1',
      '%',
      '$value.id',
      'user_contact_id',
      'Female',
      '2020-01-01',
    ),
  );
  const op = fc.constantFrom(
    '=',
    '!=',
    '<>',
    '>',
    '>=',
    '<',
    '<=',
    'IN',
    'NOT IN',
    'LIKE',
    'NOT LIKE',
    'BETWEEN',
    'NOT BETWEEN',
    'IS NULL',
    'IS NOT NULL',
    'DROP',
    '; --',
  );
  const value = fc.oneof(
    scalar,
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(op, fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxKeys: 2 }),
    fc.record(
      {
        limit: scalar,
        offset: scalar,
        sort: scalar,
        or: fc.oneof(scalar, fc.array(fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }), { maxLength: 2 })),
      },
      { requiredKeys: [] },
    ),
  );
  const params = fc.dictionary(keys, value, { maxKeys: 5 });

  const safe = async (entity: string, action: string, p: Record<string, unknown>) => {
    try {
      await engine.call(entity, action, p);
    } catch (err) {
      if (!isKernelError(err)) throw err;
      expect(
        ['E_INTERNAL', 'E_DATABASE', 'E_PLUGIN_FAILED'],
        `${err.code}: ${err.message} for ${JSON.stringify(p)}`,
      ).not.to.include(err.code);
      expect(err.message).not.to.match(/select |insert into|update "|delete from/i);
    }
  };

  it('Contact.get / getcount / Email.get', async function () {
    this.timeout(120000);
    await fc.assert(
      fc.asyncProperty(
        params,
        fc.constantFrom('get', 'getcount', 'getsingle'),
        fc.constantFrom('Contact', 'Email'),
        async (p, action, entity) => safe(entity, action, p),
      ),
      { numRuns: 150 },
    );
    expect(await engine.call('Contact', 'getcount', {})).to.equal(1);
  });

  it('every generic action on every entity (writes rolled back)', async function () {
    this.timeout(120000);
    const actions = fc.constantFrom(
      'get',
      'getsingle',
      'getvalue',
      'getcount',
      'create',
      'delete',
      'replace',
      'validate',
      'getrefcount',
      'getlist',
      'getoptions',
      'getfields',
      'getactions',
      'getunique',
      'setvalue',
      'update',
    );
    const entities = fc.constantFrom(
      'Contact',
      'Email',
      'Phone',
      'Address',
      'Website',
      'LocationType',
      'OptionGroup',
      'OptionValue',
    );
    const extra = fc.dictionary(
      fc.constantFrom(
        'field',
        'value',
        'action',
        'values',
        'input',
        'page_num',
        'label_field',
        'search_field',
        'id',
        'name',
        'api_action',
        'skip_undelete',
      ),
      fc.oneof(scalar, fc.array(fc.dictionary(keys, scalar, { maxKeys: 2 }), { maxLength: 2 })),
      { maxKeys: 3 },
    );
    await fc.assert(
      fc.asyncProperty(entities, actions, params, extra, async (entity, action, p, x) =>
        safe(entity, action, { ...p, ...x, options: { force_rollback: 1 } }),
      ),
      { numRuns: 200 },
    );
    expect(await engine.call('Contact', 'getcount', { showAll: 'all' })).to.equal(1);
  });

  it('Contact.create / Email.create with force_rollback', async function () {
    this.timeout(120000);
    await fc.assert(
      fc.asyncProperty(params, fc.constantFrom('Contact', 'Email'), async (p, entity) =>
        safe(entity, 'create', { ...p, options: { force_rollback: 1 } }),
      ),
      { numRuns: 100 },
    );
    expect(await engine.call('Contact', 'getcount', { showAll: 'all' })).to.equal(1);
  });
});
