import { expect } from 'chai';
import { KernelError, type CallRequest } from '../../../kernel';
import type { EntityRegistry, EntityService } from '../../../plugins/entity-core';
import { initialValues } from '../../../plugins/entity-core/write-values';
import type { Api3Service } from '../../../plugins/api3';
import { ADMIN, bootApi4, type Api4Kernel } from '../api4/helpers';

/** Counts the calls that enter the APIv3 engine (the pipeline at version 3, or the api3 service) during fn. */
async function api3CallsDuring(k: Api4Kernel, fn: () => Promise<unknown>): Promise<string[]> {
  const kernel = k.t.kernel;
  const seen: string[] = [];
  const originalCall = kernel.call.bind(kernel);
  kernel.call = async (req: CallRequest) => {
    if ((req.version ?? 3) === 3) seen.push(`${req.entity}.${req.action}`);
    return originalCall(req);
  };
  const api3 = kernel.container.resolve<Api3Service>('api3');
  const originalApi3 = api3.call.bind(api3);
  api3.call = async (req) => {
    seen.push(`api3:${req.entity}.${req.action}`);
    return originalApi3(req);
  };
  try {
    await fn();
  } finally {
    kernel.call = originalCall;
    api3.call = originalApi3;
  }
  return seen;
}

describe('entity service (entity-core): one save/delete sequence under both APIs', () => {
  let k: Api4Kernel;
  let service: EntityService;
  before(async () => {
    k = await bootApi4();
    service = k.t.kernel.container.resolve<EntityService>('entityService');
  });
  after(async () => k?.t.close());

  it('an APIv4 write never enters the APIv3 engine, lifecycle lookups included', async () => {
    let contactId = 0;
    const calls = await api3CallsDuring(k, async () => {
      // contact_sub_type is checked against its option group, an Email's location type defaults from
      // LocationType: both were APIv3 calls from the lifecycle code before.
      const created = await k.call('Contact', 'create', {
        values: { contact_type: 'Organization', organization_name: 'Spy Org', contact_sub_type: [] },
      });
      contactId = Number(created.values[0].id);
      await k.call('Email', 'create', { values: { contact_id: contactId, email: 'spy@example.org' } });
    });
    expect(calls).to.deep.equal([]);
    const emails = await k.call('Email', 'get', { where: [['contact_id', '=', contactId]] });
    expect(emails.values).to.have.length(1);
    expect(emails.values[0]).to.include({ email: 'spy@example.org', is_primary: true, location_type_id: 1 });
  });

  it('lifecycle code saves through sc.entities: email and current employer without APIv3', async () => {
    let saved: Record<string, unknown> = {};
    const calls = await api3CallsDuring(k, async () => {
      await k.t.kernel.db.transaction(async (trx) => {
        const entities = service.bind({ db: trx, principal: ADMIN, trusted: true });
        saved = await entities.save('Contact', {
          contact_type: 'Individual',
          first_name: 'Ada',
          last_name: 'Spy',
          email: 'ada@example.org',
          current_employer: 'Spy Employer Ltd',
        });
      });
    });
    expect(calls).to.deep.equal([]);
    const got = await k.call('Contact', 'get', {
      select: ['employer_id.organization_name'],
      where: [['id', '=', saved.id]],
    });
    expect(got.values[0]['employer_id.organization_name']).to.equal('Spy Employer Ltd');
    const emails = await k.call('Email', 'get', { where: [['contact_id', '=', saved.id]], select: ['email'] });
    expect(emails.values.map((e) => e.email)).to.deep.equal(['ada@example.org']);
    // The same name again finds the organisation instead of making a second one.
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    await entities.save('Contact', {
      contact_type: 'Individual',
      first_name: 'Bo',
      current_employer: 'Spy Employer Ltd',
    });
    expect(await entities.count('Contact', { organization_name: 'Spy Employer Ltd' })).to.equal(1);
  });

  it('afterDelete runs after every delete, also one a beforeDelete tap handled itself (trash), from both APIs', async () => {
    const registry = k.t.kernel.container.resolve<EntityRegistry>('entities');
    const deleted: unknown[] = [];
    registry.extend('Contact', { afterDelete: (row) => void deleted.push(row.id) });
    const first = await k.call('Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Del' } });
    const second = await k.call('Contact', 'create', { values: { contact_type: 'Individual', first_name: 'Del2' } });
    await k.call('Contact', 'delete', { where: [['id', '=', first.values[0].id]] });
    const scope = (await import('../../../kernel')).createRequestScope(k.t.kernel.container, 't', ADMIN);
    try {
      await scope.cradle.api.call({
        entity: 'Contact',
        action: 'delete',
        params: { id: second.values[0].id, skip_undelete: 1 },
        principal: ADMIN,
        scope,
      });
    } finally {
      await scope.dispose();
    }
    expect(deleted).to.deep.equal([first.values[0].id, second.values[0].id]);
  });

  it('refuses a value named __proto__ (JSON makes it an own key) with a clear error: never dropped, nothing written', async () => {
    const values = JSON.parse(
      '{"contact_type": "Individual", "first_name": "Proto", "__proto__": {"is_deleted": true}}',
    );
    const err = await k.t.kernel
      .call({ version: 4, entity: 'Contact', action: 'create', params: { values }, principal: ADMIN })
      .catch((e: Error) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.equal("Invalid key '__proto__' in params");
    const found = await k.t.kernel.call({
      version: 4,
      entity: 'Contact',
      action: 'get',
      params: { where: [['first_name', '=', 'Proto']] },
      principal: ADMIN,
    });
    expect((found as { values: unknown[] }).values).to.deep.equal([]);
  });

  it('an in-process write naming no field of the entity is refused, not dropped in silence (__proto__ included)', async () => {
    const contact = k.t.kernel.container.resolve<EntityRegistry>('entities').get('Contact')!;
    const input = JSON.parse('{"id": 5, "last_name": "Own", "__proto__": {"first_name": "Inherited"}}');
    expect(() => initialValues(contact, input, null)).to.throw("'__proto__' is not a field of Contact");
    const values = initialValues(contact, { id: 5, last_name: 'Own' }, null);
    expect(values.last_name).to.equal('Own');
    expect(values).not.to.have.property('id');
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    const before = Number((await k.t.kernel.db('crm_contact').count({ n: '*' }))[0].n);
    for (const write of [
      () => entities.save('Contact', { contact_type: 'Individual', last_name: 'Typo', frist_name: 'Ann' }),
      () => entities.saveMany('Contact', [{ contact_type: 'Individual', last_name: 'Typo', nick: 'A' }]),
    ]) {
      const err = await write().catch((e: KernelError) => e);
      expect(err).to.be.instanceOf(KernelError);
      expect((err as KernelError).code).to.equal('E_INVALID_PARAMS');
      expect((err as KernelError).message).to.match(/^'(frist_name|nick)' is not a field of Contact$/);
    }
    expect(Number((await k.t.kernel.db('crm_contact').count({ n: '*' }))[0].n)).to.equal(before);
  });

  it('an undefined value is not sent: no refusal for it, whatever its name', async () => {
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    const row = await entities.save('Contact', { contact_type: 'Individual', last_name: 'Unsent', nick: undefined });
    expect(row.last_name).to.equal('Unsent');
    const [many] = await entities.saveMany('Contact', [
      { contact_type: 'Individual', last_name: 'Unsent', x: undefined },
    ]);
    expect(many.last_name).to.equal('Unsent');
  });

  it('refuses unknown ids through sc.entities with a clear error', async () => {
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    const err = await entities.save('Contact', { id: 999999, first_name: 'x' }).catch((e: Error) => e);
    expect((err as Error).message).to.equal('Contact id 999999 not found');
    const del = await entities.delete('Contact', 999999).catch((e: Error) => e);
    expect((del as Error).message).to.equal('Contact id 999999 not found');
  });
});
