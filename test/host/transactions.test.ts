import { expect } from 'chai';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { bootTestKernel, failure, sqlDuring, type TestKernel } from '../../host/testing';

type Loose = Record<string, unknown>;

/** Every member a handle offers: its own and its prototype chain's, up to Function.prototype. */
function members(handle: object): Map<string, string> {
  const out = new Map<string, string>();
  for (let o: object | null = handle; o && o !== Function.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (['arguments', 'caller', 'prototype', 'length', 'name'].includes(key) || out.has(key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(o, key)!;
      out.set(key, 'get' in descriptor ? 'accessor' : typeof descriptor.value);
    }
  }
  return out;
}

describe('host/transactions: knex transactions with a light handle (on the service database)', () => {
  let kernel: TestKernel;
  let db: Knex;
  before(async () => {
    kernel = await bootTestKernel({ plugins: [] });
    db = kernel.kernel.db;
    await db.raw('create table trx_probe (v text)');
  });
  after(() => kernel.close());
  beforeEach(() => db('trx_probe').delete());
  const values = async () => (await db('trx_probe').orderBy('v').pluck('v')) as string[];

  it('offers every member of the handle knex itself builds (an upgrade of knex that changes them fails here)', async () => {
    const makeKnex = createRequire(import.meta.url)('knex/lib/knex-builder/make-knex.js') as (c: unknown) => object;
    const model = members(makeKnex(Object.create((db.client as object).constructor.prototype)));
    const trx = await db.transaction();
    try {
      const light = members(trx);
      for (const [key, kind] of model) expect([key, light.get(key)]).to.deep.equal([key, kind]);
      expect(Object.getOwnPropertyNames(trx)).to.not.include('select'); // shared, not defined per handle
      for (const key of ['commit', 'rollback', 'savepoint', 'isCompleted', 'executionPromise'])
        expect(trx).to.have.property(key);
      expect(trx.isTransaction).to.equal(true);
    } finally {
      await trx.rollback();
    }
  });

  it('commits, rolls back, and sends BEGIN and COMMIT where the root handle hears them', async () => {
    const sent = await sqlDuring(db, async () => {
      const trx = await db.transaction();
      await trx('trx_probe').insert({ v: 'kept' });
      await trx.commit();
    });
    expect(sent[0]).to.match(/^BEGIN/);
    expect(sent.at(-1)).to.match(/^COMMIT/);
    const dropped = await db.transaction();
    await dropped('trx_probe').insert({ v: 'dropped' });
    await dropped.rollback();
    expect(await values()).to.deep.equal(['kept']);
  });

  it('a container commits with its result and rolls back on a throw; executionPromise follows', async () => {
    expect(await db.transaction(async (trx) => (await trx('trx_probe').insert({ v: 'a' }), 'done'))).to.equal('done');
    const err = await failure(
      db.transaction(async (trx) => {
        await trx('trx_probe').insert({ v: 'b' });
        throw new Error('refused by the container');
      }),
    );
    expect(err.message).to.equal('refused by the container');
    const trx = await db.transaction();
    const outcome = trx.executionPromise.then(
      () => 'committed',
      (e: Error) => e.message,
    );
    await trx.rollback(new Error('rolled back on purpose'));
    expect(await outcome).to.equal('rolled back on purpose');
    expect(await values()).to.deep.equal(['a']);
  });

  it('a nested transaction is a savepoint: rolled back alone, committed with the outer one', async () => {
    await db.transaction(async (trx) => {
      await trx('trx_probe').insert({ v: 'outer' });
      await failure(
        trx.transaction(async (inner) => {
          expect((inner as unknown as Loose).parentTransaction).to.equal(trx);
          await inner('trx_probe').insert({ v: 'inner' });
          throw new Error('inner refused');
        }),
      );
      await trx.transaction((inner) => inner('trx_probe').insert({ v: 'inner kept' }));
    });
    expect(await values()).to.deep.equal(['inner kept', 'outer']);
  });

  it('a handle kept past its transaction is refused, even while its connection serves another', async () => {
    const first = await db.transaction();
    await first.commit();
    expect(first.isCompleted()).to.equal(true);
    const second = await db.transaction();
    try {
      const err = await failure(first('trx_probe').insert({ v: 'late' }));
      expect(err.message).to.contain('Transaction query already complete');
      await second('trx_probe').insert({ v: 'second' });
      await second.commit();
    } finally {
      if (!second.isCompleted()) await second.rollback();
    }
    expect(await values()).to.deep.equal(['second']);
  });

  it("the handle's own listeners hear its statements, not the pool's", async () => {
    const trx = await db.transaction();
    const heard: string[] = [];
    trx.on('query', (q: { sql: string }) => heard.push(q.sql));
    await trx.raw('select 1 as one');
    await trx.commit();
    await db.raw('select 2 as two');
    expect(heard).to.deep.equal(['select 1 as one', 'COMMIT;']);
  });

  // knex streams from PostgreSQL through the optional pg-query-stream package, which the service does not use
  // (its exports read keyset pages): there the stream is refused, and the refusal must end it, not leave it open.
  it('streams a read on its connection (its own rows) or refuses it on the stream; a finished one refuses', async () => {
    const rowsOf = async (stream: AsyncIterable<unknown>) => {
      const out: string[] = [];
      for await (const row of stream) out.push((row as Loose).v as string);
      return out;
    };
    const trx = await db.transaction();
    try {
      await trx('trx_probe').insert([{ v: 'a' }, { v: 'b' }]);
      const read = rowsOf(trx('trx_probe').select('v').orderBy('v').stream());
      if (process.env.DATABASE_URL) expect((await failure(read)).message).to.contain("requires the 'pg-query-stream'");
      else expect(await read).to.deep.equal(['a', 'b']);
      await trx.commit();
      const late = await failure(rowsOf(trx('trx_probe').select('v').stream()));
      expect(late.message).to.contain('Transaction query already complete');
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect(await values()).to.deep.equal(['a', 'b']);
  });
});
