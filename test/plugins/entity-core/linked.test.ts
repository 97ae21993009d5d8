/** Linked creates (entity-core save-linked.ts): several new records in one statement, ids linked. */
import { expect } from 'chai';
import { sqlDuring } from '../../../host/testing';
import { linkTo, type EntityRegistry, type EntityService } from '../../../plugins/entity-core';
import { ADMIN, bootApi4, type Api4Kernel } from '../api4/helpers';

type Row = Record<string, unknown>;

describe('entity-core: linked creates (entities.createLinked, sc.createWith)', function () {
  this.timeout(60000);
  let k: Api4Kernel;
  let service: EntityService;
  before(async () => {
    k = await bootApi4();
    service = k.t.kernel.container.resolve<EntityService>('entityService');
  });
  after(async () => k?.t.close());

  const thingsNamed = async (name: string) =>
    (await k.call('Api4Thing', 'get', { where: [['name', '=', name]], select: ['id'] })).values.length;

  it('records a hook queues with sc.createWith are written in the statement that creates the row, ids linked', async () => {
    const registry = k.t.kernel.container.resolve<EntityRegistry>('entities');
    registry.extend('Contact', {
      beforeSave(values, sc) {
        if (values.last_name === 'Queued')
          sc.createWith?.([
            { entity: 'Api4Thing', values: { name: 'queued-a', contact_id: linkTo(0) } },
            { entity: 'Api4Thing', values: { name: 'queued-b', contact_id: linkTo(0), score: 2.5 } },
          ]);
      },
    });
    let id = 0;
    const sqls = await sqlDuring(k.t.kernel.db, async () => {
      const made = await k.call('Contact', 'create', { values: { contact_type: 'Individual', last_name: 'Queued' } });
      id = Number(made.values[0].id);
    });
    const writes = sqls.filter((sql) => /^(insert|with)/i.test(sql));
    expect(writes, sqls.join('\n')).to.have.length(1);
    expect(writes[0]).to.match(
      /^with s0 as \(insert into "crm_contact".*insert into "crm_api4_thing".*insert into "crm_api4_thing"/,
    );
    const things = await k.call('Api4Thing', 'get', { where: [['contact_id', '=', id]], orderBy: { id: 'ASC' } });
    expect(things.values.map((t) => [t.name, t.score, t.active])).to.deep.equal([
      ['queued-a', null, true],
      ['queued-b', 2.5, true],
    ]);
    // In a batch the rows are written together first, each one's queued records right after it.
    const saved = await k.call('Contact', 'save', {
      records: [
        { contact_type: 'Individual', last_name: 'Queued' },
        { contact_type: 'Individual', last_name: 'Queued' },
      ],
    });
    for (const row of saved.values) {
      const own = await k.call('Api4Thing', 'get', { where: [['contact_id', '=', row.id]] });
      expect(own.values.map((t) => t.name)).to.deep.equal(['queued-a', 'queued-b']);
    }
  });

  it('is all in or all out: a record the database refuses leaves none of the others', async () => {
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    const err = await entities
      .createLinked([
        { entity: 'Api4Thing', values: { name: 'halfway' } },
        { entity: 'Api4Thing', values: { name: 'halfway', contact_id: 99999999 } },
      ])
      .catch((e: Error) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.match(/^DB Error/);
    expect(await thingsNamed('halfway')).to.equal(0);
  });

  it('refuses a link to a later record before anything is sent', async () => {
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    let err: unknown;
    const sqls = await sqlDuring(k.t.kernel.db, async () => {
      err = await entities
        .createLinked([
          { entity: 'Api4Thing', values: { name: 'early', contact_id: linkTo(1) } },
          { entity: 'Contact', values: { contact_type: 'Individual', last_name: 'Late' } },
        ])
        .catch((e: Error) => e);
    });
    expect((err as Error).message).to.match(/links to record 1: only earlier ones/);
    expect(sqls).to.deep.equal([]);
  });

  it('records whose hooks read what the others write (emails: one primary) are saved one by one', async () => {
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: true });
    let rows: Row[] = [];
    const sqls = await sqlDuring(k.t.kernel.db, async () => {
      rows = await entities.createLinked([
        { entity: 'Contact', values: { contact_type: 'Individual', last_name: 'OneByOne' } },
        { entity: 'Email', values: { contact_id: linkTo(0), email: 'one@example.org' } },
        { entity: 'Email', values: { contact_id: linkTo(0), email: 'two@example.org' } },
      ]);
    });
    expect(sqls.some((sql) => /^with s0/i.test(sql))).to.equal(false);
    expect(rows[1]).to.include({ contact_id: rows[0].id, email: 'one@example.org' });
    const emails = await k.call('Email', 'get', { where: [['contact_id', '=', rows[0].id]], orderBy: { id: 'ASC' } });
    expect(emails.values.map((e) => [e.email, e.is_primary])).to.deep.equal([
      ['one@example.org', true],
      ['two@example.org', false],
    ]);
  });

  it('a caller row access applies to gets the records one by one too', async () => {
    const entities = service.bind({ db: k.t.kernel.db, principal: ADMIN, trusted: false });
    let rows: Row[] = [];
    const sqls = await sqlDuring(k.t.kernel.db, async () => {
      rows = await entities.createLinked([
        { entity: 'Api4Thing', values: { name: 'watched-a' } },
        { entity: 'Api4Thing', values: { name: 'watched-b' } },
      ]);
    });
    expect(sqls.some((sql) => /^with s0/i.test(sql))).to.equal(false);
    expect(rows.map((row) => row.name)).to.deep.equal(['watched-a', 'watched-b']);
  });
});
