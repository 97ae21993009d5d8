/** PaymentProcessorType and PaymentProcessor over HTTP: CRUD, getfields, type defaults, secrets at rest. */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../../host';
import { bootPayments, type Crm, type Headers, type Row } from './http';

describe('payment: processor types and processors over HTTP', function () {
  this.timeout(60000);
  let crm: Crm;
  let admin: Headers;
  let staff: Headers;
  let dummyType: number;

  before(async () => {
    crm = await bootPayments();
    admin = (await crm.userWith('root', ['*'])).headers;
    staff = (await crm.userWith('staff', ['access CRM', 'access contributions'])).headers;
    const types = await crm.api4(admin, 'PaymentProcessorType', 'get', { where: [['name', '=', 'Dummy']] });
    dummyType = Number(types.values[0].id);
  });
  after(() => crm?.t.close());

  it('4.3.0 the Dummy processor type is seeded with class Payment_Dummy', async () => {
    const got = await crm.api3(admin, 'PaymentProcessorType', 'getsingle', { name: 'Dummy' });
    expect(got, JSON.stringify(got)).to.include({
      name: 'Dummy',
      title: 'Dummy Payment Processor',
      class_name: 'Payment_Dummy',
      billing_mode: '1',
      is_recur: '1',
      is_active: '1',
    });
  });

  it('4.3.0 PaymentProcessorType create, get with a filter, update, delete and getfields', async () => {
    const made = await crm.api3(admin, 'PaymentProcessorType', 'create', {
      name: 'Other',
      title: 'Another kind',
      class_name: 'Payment_Other',
      billing_mode: 'form',
      password_label: 'Secret key',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const id = Number(made.id);
    expect(made.values[String(id)]).to.include({ billing_mode: '1', is_active: '1', payment_type: '1' });
    const missing = await crm.api3(admin, 'PaymentProcessorType', 'create', { name: 'X', title: 'X' });
    expect(missing.is_error).to.equal(1);
    expect(String(missing.error_message)).to.match(/class_name/);
    await crm.api4(admin, 'PaymentProcessorType', 'update', { where: [['id', '=', id]], values: { is_active: false } });
    const got = await crm.api4(admin, 'PaymentProcessorType', 'get', {
      where: [['is_active', '=', false]],
      select: ['name', 'billing_mode:label'],
    });
    expect(got.values).to.deep.equal([{ name: 'Other', 'billing_mode:label': 'form' }]);
    const fields = await crm.api3(admin, 'PaymentProcessorType', 'getfields', { action: 'create' });
    expect(Object.keys(fields.values)).to.include.members(['class_name', 'user_name_label', 'url_site_test_default']);
    expect(fields.values.name).to.include({ 'api.required': 1 });
    const deleted = await crm.api3(admin, 'PaymentProcessorType', 'delete', { id });
    expect(deleted, JSON.stringify(deleted)).to.include({ is_error: 0 });
  });

  it('4.3.0 PaymentProcessor create copies the type (4.6 class_name), joins its type, and is administered only', async () => {
    const made = await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'Front desk',
      payment_processor_type_id: 'Dummy',
      user_name: 'merchant-1',
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0, count: 1 });
    const row = made.values[String(made.id)];
    expect(row).to.include({
      class_name: 'Payment_Dummy',
      billing_mode: '1',
      title: 'Front desk',
      frontend_title: 'Front desk',
      is_test: '0',
      domain_id: '1',
    });
    const joined = await crm.api4(staff, 'PaymentProcessor', 'get', {
      select: ['name', 'payment_processor_type_id.title', 'payment_processor_type_id:name'],
      where: [['id', '=', Number(made.id)]],
    });
    expect(joined.values[0]).to.include({
      'payment_processor_type_id.title': 'Dummy Payment Processor',
      'payment_processor_type_id:name': 'Dummy',
    });
    const refused = await crm.api3(staff, 'PaymentProcessor', 'create', { name: 'Mine', payment_processor_type_id: 1 });
    expect(refused.is_error).to.equal(1);
    const unknownType = await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'X',
      payment_processor_type_id: 999,
    });
    expect(unknownType.is_error).to.equal(1);
    const fields = await crm.api4(admin, 'PaymentProcessor', 'getFields', { select: ['name'] });
    expect((fields.values as Row[]).map((field) => field.name)).to.include.members([
      'payment_processor_type_id',
      'user_name',
      'password',
      'signature',
      'is_test',
    ]);
  });

  it('4.3.0 financial_account_id links another asset account, on create (APIv3) and update', async () => {
    const accounts = await crm.api4(admin, 'FinancialAccount', 'get', {
      where: [['financial_account_type_id', '=', 1]],
      orderBy: { id: 'DESC' },
    });
    const other = Number(accounts.values[0].id);
    const made = await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'Own account',
      payment_processor_type_id: 'Dummy',
      financial_account_id: other,
    });
    expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
    const linkOf = async () =>
      (
        await crm.api4(admin, 'EntityFinancialAccount', 'get', {
          select: ['financial_account_id'],
          where: [
            ['entity_table', '=', 'civicrm_payment_processor'],
            ['entity_id', '=', Number(made.id)],
          ],
        })
      ).values as Row[];
    expect(await linkOf()).to.deep.equal([{ financial_account_id: other }]);
    const first = Number(accounts.values[accounts.values.length - 1].id);
    await crm.api3(admin, 'PaymentProcessor', 'create', { id: made.id, financial_account_id: first });
    expect(await linkOf()).to.deep.equal([{ financial_account_id: first }]);
    const bad = await crm.api3(admin, 'PaymentProcessor', 'create', { id: made.id, financial_account_id: 'x' });
    expect(bad.is_error).to.equal(1);
  });

  it('4.3.0 the processor is linked to its asset account (the default one, or financial_account_id)', async () => {
    const made = await crm.api4(admin, 'PaymentProcessor', 'create', {
      values: { name: 'Linked', payment_processor_type_id: dummyType },
    });
    const id = Number(made.values[0].id);
    const link = await crm.api4(admin, 'EntityFinancialAccount', 'get', {
      select: ['account_relationship:name', 'financial_account_id.name'],
      where: [
        ['entity_table', '=', 'civicrm_payment_processor'],
        ['entity_id', '=', id],
      ],
    });
    expect(link.values).to.have.length(1);
    expect(link.values[0]).to.include({
      'account_relationship:name': 'Asset Account is',
      'financial_account_id.name': 'Deposit Bank Account',
    });
  });

  describe('secrets', () => {
    let processorId: number;
    before(async () => {
      const made = await crm.api3(admin, 'PaymentProcessor', 'create', {
        name: 'Secretive',
        payment_processor_type_id: 'Dummy',
        user_name: 'merchant-2',
        password: 'pw-0123-secret',
        signature: 'sig-4567-secret',
        subject: 'on-behalf-of',
      });
      expect(made, JSON.stringify(made)).to.include({ is_error: 0 });
      processorId = Number(made.id);
      expect(JSON.stringify(made)).not.to.contain('pw-0123-secret');
    });

    it('password and signature are stored encrypted; user_name and subject are not secrets', async () => {
      const raw = await crm.t.kernel
        .db('crm_payment_processor')
        .where({ id: processorId })
        .first('password', 'signature', 'user_name', 'subject');
      expect(raw.password).to.match(/^enc:v1:/);
      expect(raw.signature).to.match(/^enc:v1:/);
      expect(raw.password).not.to.contain('pw-0123');
      expect(raw).to.include({ user_name: 'merchant-2', subject: 'on-behalf-of' });
    });

    it('are returned to administrators who ask, never to others nor by default', async () => {
      const byDefault = await crm.api3(admin, 'PaymentProcessor', 'getsingle', { id: processorId });
      expect(byDefault).not.to.have.property('password');
      expect(byDefault).to.include({ user_name: 'merchant-2' });
      const asked = await crm.api4(admin, 'PaymentProcessor', 'get', {
        select: ['password', 'signature'],
        where: [['id', '=', processorId]],
      });
      expect(asked.values[0]).to.include({ password: 'pw-0123-secret', signature: 'sig-4567-secret' });
      const v3 = await crm.api3(staff, 'PaymentProcessor', 'getsingle', {
        id: processorId,
        return: 'password,signature,user_name',
      });
      expect(v3, JSON.stringify(v3)).to.include({ user_name: 'merchant-2' });
      expect(v3).not.to.have.property('password');
      expect(v3).not.to.have.property('signature');
      const v4 = await crm.api4(staff, 'PaymentProcessor', 'get', {
        select: ['password', 'signature'],
        where: [['id', '=', processorId]],
      });
      expect(JSON.stringify(v4)).not.to.contain('secret');
    });

    it('are never logged: not by the calls, and the logger redacts them by key wherever they appear', () => {
      const logged = JSON.stringify(crm.t.logs);
      expect(logged).not.to.contain('pw-0123-secret');
      expect(logged).not.to.contain('sig-4567-secret');
      const lines: string[] = [];
      const destination = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      createLogger({ destination }).info(
        {
          params: { password: 'pw-1', signature: 'sig-1', credit_card_number: '4111111111111111', cvv2: '123' },
          user_name: 'merchant-2',
        },
        'a processor call',
      );
      expect(lines.join('')).not.to.match(/pw-1|sig-1|4111111111111111|"123"/);
      expect(lines.join('')).to.contain('merchant-2');
    });
  });

  it('4.3.0 a test processor pairs with the live one of the same name; the name is unique per mode', async () => {
    const live = await crm.api3(admin, 'PaymentProcessor', 'create', { name: 'Paired', payment_processor_type_id: 1 });
    const test = await crm.api3(admin, 'PaymentProcessor', 'create', {
      name: 'Paired',
      payment_processor_type_id: 1,
      is_test: 1,
    });
    expect(live.is_error).to.equal(0);
    expect(test, JSON.stringify(test)).to.include({ is_error: 0 });
    const again = await crm.api3(admin, 'PaymentProcessor', 'create', { name: 'Paired', payment_processor_type_id: 1 });
    expect(again.is_error).to.equal(1);
  });
});
