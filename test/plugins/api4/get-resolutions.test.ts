/**
 * Kept APIv4 get resolutions (plugins/api4/get-resolutions.ts): a get asked again by the same reader skips
 * resolving its params, but never shows one reader what another's permissions allow, asks the permission to
 * join on every call, and forgets everything when options change.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { bootTestKernel, failure, principalWith, type TestKernel } from '../../../host/testing';
import type { Principal } from '../../../kernel';
import type { CompiledEntity } from '../../../plugins/entity-core';
import { GetResolutions, type GetResolution } from '../../../plugins/api4/get-resolutions';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/plugins');
type Row = Record<string, unknown>;
const gate = globalThis as { joinGateClosed?: boolean };

describe('APIv4 get resolutions, kept per reader', function () {
  this.timeout(60000);
  let kernel: TestKernel;
  let contactId: number;
  const admin = principalWith(['*'], 1);
  const get = async (principal: Principal, entity: string, params: Row, db?: Knex) =>
    (await kernel.kernel.call({ version: 4, entity, action: 'get', params, principal, db })) as { values: Row[] };
  /** A new activity of this type, and how a get shows its type's label (in `db` when given). */
  const activityLabel = async (activityType: number) => {
    const made = (await kernel.kernel.call({
      version: 4,
      entity: 'Activity',
      action: 'create',
      params: { values: { activity_type_id: activityType, subject: 'label probe', source_contact_id: contactId } },
      principal: admin,
    })) as { values: Row[] };
    const params = { select: ['id', 'activity_type_id:label'], where: [['id', '=', made.values[0].id]] };
    return async (db?: Knex) => (await get(admin, 'Activity', params, db)).values[0]['activity_type_id:label'];
  };
  /** Renames the activity type with this value (in `db` when given). */
  const renameType = (value: string, label: string, db?: Knex) =>
    kernel.kernel.call({
      version: 4,
      entity: 'OptionValue',
      action: 'update',
      params: {
        where: [
          ['option_group_id:name', '=', 'activity_type'],
          ['value', '=', value],
        ],
        values: { label },
      },
      principal: admin,
      db,
    });

  before(async () => {
    kernel = await bootTestKernel({
      plugins: ['entity-contact', 'entity-activity', 'api4', 'join-gate'],
      pluginDirs: [FIXTURES],
    });
    const made = (await kernel.kernel.call({
      version: 4,
      entity: 'Contact',
      action: 'create',
      params: {
        values: {
          contact_type: 'Individual',
          first_name: 'Kept',
          api_key: 'k-123',
          'email_primary.email': 'kept@example.org',
        },
      },
      principal: admin,
    })) as { values: Row[] };
    contactId = Number(made.values[0].id);
  });
  after(() => kernel.close());

  it('the same get by readers whose permissions differ: each gets what its own allow, in either order', async () => {
    const keys = principalWith(['access CRM', 'view all contacts', 'edit api keys'], 2);
    const plain = principalWith(['access CRM', 'view all contacts'], 3);
    const shown = { select: ['id', 'api_key'], where: [['id', '=', contactId]] };
    // Only a secret selected: nothing to read for a reader who may not see it (no row, no statement).
    const secretOnly = { select: ['api_key'], where: [['id', '=', contactId]] };
    for (let round = 0; round < 2; round++) {
      expect((await get(keys, 'Contact', shown)).values).to.deep.equal([{ id: contactId, api_key: 'k-123' }]);
      expect((await get(plain, 'Contact', shown)).values).to.deep.equal([{ id: contactId }]);
      expect((await get(keys, 'Contact', secretOnly)).values).to.deep.equal([{ api_key: 'k-123' }]);
      expect((await get(plain, 'Contact', secretOnly)).values).to.deep.equal([]);
    }
  });

  it("a join's permission is asked on every call, though the reader and the params stay the same", async () => {
    const reader = principalWith(['access CRM', 'view all contacts'], 2);
    const byPath = { select: ['id', 'email_primary.email'], where: [['id', '=', contactId]] };
    const explicit = {
      select: ['id', 'e.email'],
      join: [['Email AS e', 'LEFT', ['e.contact_id', '=', 'id']]],
      where: [['id', '=', contactId]],
    };
    try {
      for (const params of [byPath, explicit]) {
        gate.joinGateClosed = false;
        expect((await get(reader, 'Contact', params)).values).to.have.length(1);
        expect((await get(reader, 'Contact', params)).values).to.have.length(1);
        gate.joinGateClosed = true;
        const refused = await failure(get(reader, 'Contact', params));
        expect(refused.code).to.equal('E_FORBIDDEN');
        expect(refused.message).to.match(/^Authorization failed: cannot join onto Email/);
      }
    } finally {
      gate.joinGateClosed = false;
    }
  });

  it('an option renamed between two identical gets shows its new label (options changes forget them)', async () => {
    const label = await activityLabel(1);
    const before = await label();
    expect(await label()).to.equal(before);
    await renameType('1', 'Renamed for the test');
    expect(await label()).to.equal('Renamed for the test');
  });

  for (const where of ['in the transaction', 'in a savepoint released before the rollback'])
    it(`an option renamed ${where} and read in a transaction that rolls back: the next get shows the committed label`, async () => {
      const label = await activityLabel(2);
      const committed = await label();
      const rename = (db: Knex) => renameType('2', 'Never committed', db);
      const trx = await kernel.kernel.db.transaction();
      try {
        if (where === 'in the transaction') await rename(trx);
        else await trx.transaction((savepoint) => rename(savepoint));
        expect(await label(trx)).to.equal('Never committed'); // kept, with options only this transaction saw
      } finally {
        await trx.rollback();
      }
      expect(await label()).to.equal(committed);
    });
});

describe('GetResolutions keys and keeping', () => {
  const entity = { name: 'Contact' } as CompiledEntity;
  const reader = (permissions: string[], attributes?: Row, trusted = false) => ({
    principal: { ...principalWith(permissions, 7), ...(attributes ? { attributes } : {}) },
    trusted,
  });
  const resolutions = new GetResolutions(() => 0);
  const params = { select: ['id'], where: [['id', '=', 1]] };

  it('a key for each reader: permissions, trust and attributes (a session) each make their own', () => {
    const keys = [
      resolutions.key(entity, params, reader(['access CRM'])),
      resolutions.key(entity, params, reader(['access CRM', 'edit api keys'])),
      resolutions.key(entity, params, reader(['access CRM'], undefined, true)),
      resolutions.key(entity, params, reader(['access CRM'], { session: 'a' })),
      resolutions.key(entity, params, reader(['access CRM'], { session: 'b' })),
      resolutions.key(entity, { ...params, orderBy: { id: 'DESC' } }, reader(['access CRM'])),
    ];
    expect(new Set(keys).size).to.equal(keys.length);
    expect(resolutions.key(entity, params, reader(['access CRM']))).to.equal(keys[0]);
    // The page is read from the params on every call: the next page of the same get finds the same resolution.
    expect(resolutions.key(entity, { ...params, limit: 25, offset: 50 }, reader(['access CRM']))).to.equal(keys[0]);
  });

  it('a resolution (or a read plan) made while the options version moved is used once, not kept', async () => {
    let version = 0;
    const kept = new GetResolutions(() => version);
    const made = { entity, fields: new Map(), aggregates: new Map(), where: [], sort: [] } as unknown as GetResolution;
    // An option write lands while it is being made (it read the options before the write).
    expect(await kept.made('moved', async () => (version++, made))).to.equal(made);
    expect(kept.get('moved', entity)).to.equal(undefined);
    expect(await kept.made('steady', async () => made)).to.equal(made);
    expect(kept.get('steady', entity)).to.equal(made);
  });

  it('no key for a chained get, nor for params too long to keep', () => {
    expect(resolutions.key(entity, { ...params, chain: { e: ['Email', 'get', {}] } }, reader([]))).to.equal(undefined);
    const ids = Array.from({ length: 3000 }, (_, i) => i);
    expect(resolutions.key(entity, { where: [['id', 'IN', ids]] }, reader([]))).to.equal(undefined);
  });

  it('a kept resolution cannot be changed by whoever uses it', () => {
    const kept = resolutions.set('k', {
      entity,
      fields: new Map(),
      aggregates: new Map(),
      suffixed: [],
      hiddenBases: new Set(),
      shape: { joins: [], groupBy: [], having: [], joinAccess: true },
      where: [{ path: 'id', op: 'IN', value: [1, 2] }],
      sort: [{ path: 'id', dir: 'ASC' }],
      rowCount: false,
      paths: [],
    } as GetResolution);
    expect(() => kept.where.push({ path: 'id', op: '=', value: 3 })).to.throw(TypeError);
    expect(() => ((kept.where[0] as { value: number[] }).value as number[]).push(3)).to.throw(TypeError);
    expect(resolutions.get('k', entity)).to.equal(kept);
    expect(resolutions.get('k', { name: 'Contact' } as CompiledEntity)).to.equal(undefined); // another metadata object
  });
});
