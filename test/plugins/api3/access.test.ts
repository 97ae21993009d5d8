import { expect } from 'chai';
import { ANONYMOUS } from '../../../kernel';
import { principalWith } from '../../../host/testing';
import { rule } from './fixtures/row-access-tap/register';
import { bootEngine, individual, type Engine } from './helpers';

describe('api3 permissions (§6) and row access (entity.access)', () => {
  let engine: Engine;
  let ann: number;
  let bob: number;
  let bobEmail: number;
  before(async () => {
    engine = await bootEngine({ withRowAccess: true });
    ann = await individual(engine.call, 'Ann', 'Archer', { email: 'ann@example.org' });
    bob = await individual(engine.call, 'Bob', 'Baker', { email: 'bob@example.org' });
    bobEmail = (await engine.call('Email', 'get', { contact_id: bob })).id;
  });
  afterEach(() => {
    rule.answer = undefined;
  });
  after(async () => engine?.t.close());

  describe('permission map', () => {
    const staff = principalWith(['access CRM'], 1);
    it('Contact.create needs access CRM and add contacts (message as the reference)', async () => {
      const err = await engine.fail('Contact', 'create', { contact_type: 'Individual', first_name: 'X' }, staff);
      expect(err.message).to.equal(
        'API permission check failed for Contact/create call; insufficient permission: require access CRM and add contacts',
      );
      expect(err.details).to.include({ error_code: 'unauthorized', entity: 'Contact', action: 'create' });
      const ok = await engine.call(
        'Contact',
        'create',
        { contact_type: 'Individual', first_name: 'X' },
        principalWith(['access CRM', 'add contacts'], 1),
      );
      expect(ok.count).to.equal(1);
    });
    it('create with an id is an update (no API-level permission for Contact)', async () => {
      const r = await engine.call('Contact', 'create', { id: ann, nick_name: 'A' }, principalWith([], 1));
      expect(r.values[String(ann)].nick_name).to.equal('A');
    });
    it('permission is checked before params are validated', async () => {
      const err = await engine.fail('Contact', 'delete', { id: 'not-a-number' }, staff);
      expect(err.message).to.equal(
        'API permission check failed for Contact/delete call; insufficient permission: require access CRM and delete contacts',
      );
    });
    it('OR groups render as ( a or b ); other actions fall back through get/delete/update/meta/default', async () => {
      const og = await engine.fail('OptionValue', 'create', { option_group_id: 'gender', label: 'X' }, staff);
      expect(og.message).to.equal(
        'API permission check failed for OptionValue/create call; insufficient permission: ' +
          'require access CRM and ( administer CRM or manage event profiles )',
      );
      expect((await engine.fail('Contact', 'validate', { action: 'create' }, staff)).message).to.match(
        /require administer CRM$/,
      );
      expect((await engine.fail('Contact', 'replace', { values: [] }, staff)).message).to.match(
        /require access CRM and delete contacts$/,
      );
      expect(await engine.call('LocationType', 'getcount', {}, staff)).to.equal(5);
      expect((await engine.fail('LocationType', 'getfields', {}, principalWith([], 1))).message).to.match(
        /require access CRM$/,
      );
      expect((await engine.fail('LocationType', 'delete', { id: 1 }, staff)).message).to.match(
        /require administer CRM data$/,
      );
    });
    it('anonymous callers get unauthorized too', async () => {
      const err = await engine.fail('LocationType', 'get', {}, ANONYMOUS);
      expect(err.code).to.equal('E_UNAUTHENTICATED');
      expect(err.details).to.include({ error_code: 'unauthorized' });
    });
    it('joining onto an entity the caller may not get is refused', async () => {
      const err = await engine.fail('Email', 'get', { return: 'email,location_type_id.name' }, principalWith([], 1));
      expect(err.message).to.equal('Authorization failed to join onto LocationType api in parameter location_type_id');
      expect(err.details).to.include({ error_code: 'unauthorized' });
    });
    it('getactions lists only the actions the caller may run', async () => {
      const r = await engine.call('LocationType', 'getactions', {}, staff);
      expect(r.values).to.include.members(['get', 'getsingle', 'getcount', 'getfields', 'getactions']);
      expect(r.values).not.to.include.members(['create']);
      expect(r.values).not.to.include('delete');
      expect(r.deprecated).to.have.keys(['setvalue', 'update']);
    });
  });

  describe('row access', () => {
    const own = () => principalWith(['access CRM', 'add contacts', 'delete contacts'], ann);
    const ownOnly = () => {
      // As the contact rule: creating a contact is a matter of permissions, every other row of one's own.
      rule.answer = (q) =>
        q.entity === 'Contact' && q.operation === 'create'
          ? 'all'
          : q.ownerField && q.contactId
            ? { where: [{ path: q.ownerField, op: '=', value: q.contactId }] }
            : 'none';
    };

    it('limits get, getcount, getsingle and chained gets to the allowed contacts', async () => {
      ownOnly();
      const result = await engine.call(
        'Contact',
        'get',
        { return: 'display_name', 'api.Email.get': { return: 'email' } },
        own(),
      );
      expect(Object.keys(result.values)).to.deep.equal([String(ann)]);
      expect(result.values[String(ann)]['api.Email.get'].values[0].email).to.equal('ann@example.org');
      expect(await engine.call('Contact', 'getcount', {}, own())).to.equal(1);
      expect((await engine.fail('Contact', 'getsingle', { id: bob }, own())).message).to.equal(
        'Expected one Contact but found 0',
      );
      expect((await engine.call('Email', 'get', { contact_id: bob }, own())).count).to.equal(0);
      const chained = await engine.call(
        'Contact',
        'get',
        { id: ann, return: 'id', 'api.Email.get': { contact_id: bob } },
        own(),
      );
      expect(chained.values[String(ann)]['api.Email.get'].count).to.equal(0);
    });
    it("'none' hides everything; no answer means all", async () => {
      rule.answer = () => 'none';
      expect(await engine.call('Contact', 'getcount', {}, own())).to.equal(0);
      rule.answer = () => undefined;
      expect(await engine.call('Contact', 'getcount', {}, own())).to.be.greaterThan(1);
    });
    it('refuses writes to rows of other contacts', async () => {
      ownOnly();
      const upd = await engine.fail('Contact', 'create', { id: bob, nick_name: 'B' }, own());
      expect(upd.message).to.equal('Permission denied to modify contact record');
      expect(upd.details).to.include({ error_code: 'unauthorized' });
      expect(
        (await engine.fail('Email', 'create', { contact_id: bob, email: 'x@example.org' }, own())).message,
      ).to.equal('Permission denied to modify contact record');
      expect((await engine.fail('Email', 'delete', { id: bobEmail }, own())).message).to.equal(
        'Permission denied to modify contact record',
      );
      expect(
        (await engine.fail('Email', 'create', { id: bobEmail, email: 'stolen@example.org' }, own())).message,
      ).to.equal('Permission denied to modify contact record');
      // moving one's own email onto another contact is refused as well
      const mine = (await engine.call('Email', 'get', { contact_id: ann }, own())).id;
      expect((await engine.fail('Email', 'create', { id: mine, contact_id: bob }, own())).message).to.equal(
        'Permission denied to modify contact record',
      );
      const ok = await engine.call('Email', 'create', { contact_id: ann, email: 'ann2@example.org' }, own());
      expect(ok.count).to.equal(1);
    });
    it("trusted internal calls (a new contact's primary email) are not limited", async () => {
      ownOnly();
      const r = await engine.call(
        'Contact',
        'create',
        { contact_type: 'Individual', first_name: 'New', email: 'new@example.org' },
        own(),
      );
      rule.answer = undefined;
      expect(await engine.call('Email', 'getcount', { contact_id: r.id })).to.equal(1);
    });
    it("api3(ctx, …) inside an action runs in the caller's transaction and principal", async () => {
      const ok = await engine.call(
        'FixtureWrap',
        'create',
        { first_name: 'Wrapped' },
        principalWith(['access CRM', 'add contacts'], ann),
      );
      expect(await engine.call('Contact', 'getcount', { id: ok.id })).to.equal(1);
      await engine.fail(
        'FixtureWrap',
        'create',
        { first_name: 'RolledBack', fail: 1 },
        principalWith(['access CRM', 'add contacts'], ann),
      );
      expect(await engine.call('Contact', 'getcount', { first_name: 'RolledBack' })).to.equal(0);
      const denied = await engine.fail('FixtureWrap', 'create', { first_name: 'NoPerm' }, principalWith([], ann));
      expect(denied.message).to.match(/^API permission check failed for Contact\/create call/);
    });
    it('the hook is asked with the operation', async () => {
      const seen: string[] = [];
      rule.answer = (q) => {
        seen.push(`${q.entity}:${q.operation}`);
        return 'all';
      };
      await engine.call('Email', 'get', { contact_id: ann }, own());
      const p = await engine.call('Phone', 'create', { contact_id: ann, phone: '1' }, own());
      await engine.call('Phone', 'delete', { id: p.id }, own());
      expect(seen).to.include.members(['Email:view', 'Phone:create', 'Phone:delete']);
    });
  });
});
