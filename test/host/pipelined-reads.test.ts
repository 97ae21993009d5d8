import { expect } from 'chai';
import type { Knex } from 'knex';
import { PipelinedReads, pipelinedReadsOf } from '../../host/pipelined-reads';
import type { EntityService } from '../../plugins/entity-core';
import { ADMIN, bootApi4, type Api4Kernel } from '../plugins/api4/helpers';

type Lane = NonNullable<ReturnType<PipelinedReads['connection']>>;
interface Client {
  query(connection: unknown, query: object): Promise<{ response: { rows: unknown[][] } }>;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Page reads sharing round trips on PostgreSQL (host/pipelined-reads.ts); the embedded engine has one connection. */
describe('host/pipelined-reads: light reads share a pipelined connection (PostgreSQL)', function () {
  this.timeout(60000);
  let k: Api4Kernel;
  let db: Knex;
  let reads: PipelinedReads;
  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    k = await bootApi4();
    db = k.t.kernel.db;
    reads = new PipelinedReads(db.client as never, { connections: 1, lightMs: 3, stallMs: 20 });
    await reads.open();
  });
  after(async () => {
    await reads?.close();
    await k?.t.close();
  });
  /** A statement through `connection`, as entity-core's runPlan sends one; its rows as arrays. */
  const read = async (connection: Lane | undefined, sql: string, bindings: unknown[] = []) => {
    expect(connection, 'a pipelined connection').to.not.equal(undefined);
    const ran = await (db.client as unknown as Client).query(connection, {
      method: 'raw',
      sql,
      bindings,
      options: { rowMode: 'array' },
    });
    return ran.response.rows;
  };

  it('answers concurrent reads on one backend, each its own rows, sent in one write', async () => {
    const lane = reads.connection('probe')!;
    const socket = lane.client.connection.stream as unknown as { _writev: (...a: unknown[]) => void };
    const writev = socket._writev.bind(socket);
    let writes = 0;
    socket._writev = (...a: unknown[]) => {
      writes++;
      writev(...a);
    };
    try {
      const sql = 'select pg_backend_pid(), ?::int as n';
      const answers = await Promise.all([...Array(20).keys()].map((n) => read(reads.connection(sql), sql, [n])));
      expect(answers.map((rows) => rows[0][1])).to.deep.equal([...Array(20).keys()]);
      expect(new Set(answers.map((rows) => rows[0][0])).size).to.equal(1);
      const [{ pid: poolPid }] = (await db.raw('select pg_backend_pid() as pid')).rows as Array<{ pid: number }>;
      expect(answers[0][0][0]).to.not.equal(poolPid);
      expect(writes).to.equal(1);
    } finally {
      socket._writev = writev;
    }
  });

  it('a failing statement fails alone; the ones around it are answered', async () => {
    const sql = 'select 10 / ?::int';
    const settled = await Promise.allSettled([2, 0, 5].map((n) => read(reads.connection(sql), sql, [n])));
    expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).to.match(/division by zero/);
    expect((settled[2] as PromiseFulfilledResult<unknown[][]>).value[0][0]).to.equal(2);
  });

  it('a connection held up past stallMs takes no more reads; a statement slower than lightMs goes to the pool', async () => {
    const slow = 'select pg_sleep(?::float)';
    const held = read(reads.connection(slow), slow, [0.2]);
    await sleep(60);
    expect(reads.connection('select 1'), 'held up: the pool').to.equal(undefined);
    await held;
    expect(reads.connection('select 1'), 'answered: free again').to.not.equal(undefined);
    expect(reads.connection(slow), 'heavy: the pool').to.equal(undefined);
    await sleep(1050);
    expect(reads.connection(slow), 'tried again a second later').to.not.equal(undefined);
  });

  it('a lost connection is replaced, and its statement fails with the driver error rather than hanging', async () => {
    const sql = 'select pg_backend_pid()';
    const [[before]] = await read(reads.connection(sql), sql);
    const waiting = read(reads.connection('select pg_sleep(1)'), 'select pg_sleep(1)').then(
      () => new Error('answered by a terminated backend'),
      (err: Error) => err,
    );
    await db.raw('select pg_terminate_backend(?)', [before as number]);
    expect((await waiting).message).to.match(/terminat|Connection/i);
    // The driver reports the end of the connection just after the statement's error.
    for (let waited = 0; reads.connection(sql) && waited < 2000; waited += 20) await sleep(20);
    expect(reads.connection(sql), 'the lost connection is dropped').to.equal(undefined);
    await reads.open();
    const [[after]] = await read(reads.connection(sql), sql);
    expect(after).to.not.equal(before);
  });

  it("serves the service's own page reads outside transactions, never a transaction's", async () => {
    const service = pipelinedReadsOf(db)!;
    expect(service, 'on by default').to.not.equal(undefined);
    const get = () => k.call('Contact', 'get', { select: ['id'], limit: 5 }, ADMIN);
    await get(); // the first read opens the connection
    await service.open();
    const sent = service.sent;
    await get();
    expect(service.sent).to.equal(sent + 1);
    const entities = k.t.kernel.container.resolve<EntityService>('entityService');
    await db.transaction(async (trx) => {
      const [{ id }] = (await trx('crm_contact').insert({ contact_type: 'Individual', display_name: 'In trx' }, [
        'id',
      ])) as Array<{ id: number }>;
      const inside = await entities.bind({ db: trx, principal: ADMIN }).get('Contact', { where: { id } });
      expect(inside.map((row) => row.display_name)).to.deep.equal(['In trx']);
    });
    expect(service.sent).to.equal(sent + 1);
  });
});
