import { expect } from 'chai';
import { sqlDuring } from '../../../host/testing';
import { ADMIN, bootApi4, type Api4Kernel } from './helpers';

const statements = (k: Api4Kernel, fn: () => Promise<unknown>) => sqlDuring(k.t.kernel.db, fn);

describe('api4 create/update statements (the written row comes from RETURNING)', () => {
  let k: Api4Kernel;
  before(async () => {
    k = await bootApi4();
    // Warm the option caches, as a running server has them.
    await k.call(
      'Contact',
      'create',
      { values: { contact_type: 'Individual', first_name: 'Warm', last_name: 'Up' } },
      ADMIN,
    );
  });
  after(async () => k?.t.close());

  it('Contact.create is BEGIN, INSERT … RETURNING, the answer read as APIv4 shows it, COMMIT', async () => {
    let result: any;
    const sqls = await statements(k, async () => {
      result = await k.call(
        'Contact',
        'create',
        { values: { contact_type: 'Individual', first_name: 'Bench', last_name: 'Mark' } },
        ADMIN,
      );
    });
    expect(sqls).to.have.length(4);
    expect(sqls[0]).to.match(/^begin/i);
    expect(sqls[1]).to.match(/^insert into "crm_contact" .* returning /i);
    expect(sqls[2]).to.match(/^select /i);
    expect(sqls[3]).to.match(/^commit/i);
    expect(result.values[0]).to.include({
      display_name: 'Bench Mark',
      sort_name: 'Mark, Bench',
      contact_type: 'Individual',
    });
    const [got] = (await k.call('Contact', 'get', { where: [['id', '=', result.values[0].id]] }, ADMIN))
      .values as any[];
    expect(result.values[0]).to.deep.equal(got);
  });

  it('Contact.update writes with UPDATE … RETURNING and answers the stored row', async () => {
    const {
      values: [contactId],
    } = (await k.call(
      'Contact',
      'create',
      { values: { contact_type: 'Individual', first_name: 'Old', last_name: 'Name' } },
      ADMIN,
    )) as any;
    let result: any;
    const sqls = await statements(k, async () => {
      result = await k.call(
        'Contact',
        'update',
        { where: [['id', '=', contactId.id]], values: { first_name: 'New' } },
        ADMIN,
      );
    });
    expect(sqls.filter((q) => /^update "crm_contact" .* returning /i.test(q))).to.have.length(1);
    expect(result.values[0]).to.include({
      id: contactId.id,
      first_name: 'New',
      display_name: 'New Name',
      sort_name: 'Name, New',
    });
  });
});
