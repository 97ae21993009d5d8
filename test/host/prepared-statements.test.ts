import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { preparedStatements } from '../../host/prepared-statements';

/** The pool's statements on PostgreSQL (the embedded engine takes knex's own path): named, and sent the short way. */
describe('host/prepared-statements: the pool sends its statements named, and as knex would', function () {
  const url = process.env.DATABASE_URL;
  let db: Knex;
  before(function () {
    if (!url) this.skip(); // PostgreSQL only: the embedded engine's client is not patched
    // One connection, so what it has prepared can be read back on it.
    db = preparedStatements(knexFactory({ client: 'pg', connection: url, pool: { min: 1, max: 1 } }));
  });
  after(async () => {
    await db?.destroy();
  });
  const prepared = async () =>
    (await db.raw('select name, statement from pg_prepared_statements')).rows as Array<{
      name: string;
      statement: string;
    }>;

  it('names a statement with bindings by its text, positioned as $n; a text without bindings is not named', async () => {
    const seen: Array<{ sql: string; bindings: unknown }> = [];
    const listen = (q: { sql: string; bindings: unknown }) => seen.push({ sql: q.sql, bindings: q.bindings });
    db.on('query', listen);
    try {
      const first = await db.raw('select ?::int + ?::int as n /* named */', [2, 3]);
      const again = await db.raw('select ?::int + ?::int as n /* named */', [4, 5]);
      await db.raw('select 40 + 2 as n /* unnamed */');
      expect(first.rows).to.deep.equal([{ n: 5 }]);
      expect(again.rows).to.deep.equal([{ n: 9 }]);
    } finally {
      db.removeListener('query', listen);
    }
    const mine = (await prepared()).filter(
      (p) => p.statement.includes('/* named */') || p.statement.includes('unnamed'),
    );
    expect(mine).to.have.length(1);
    expect(mine[0].name).to.match(/^crm_\d+$/);
    expect(mine[0].statement).to.equal('select $1::int + $2::int as n /* named */');
    // The `query` event (sqlDuring, statement counts) sees the positioned text and the values, as from knex.
    expect(seen.slice(0, 2)).to.deep.equal([
      { sql: 'select $1::int + $2::int as n /* named */', bindings: [2, 3] },
      { sql: 'select $1::int + $2::int as n /* named */', bindings: [4, 5] },
    ]);
  });

  it('passes the caller’s options to the driver (rows as arrays), and a query builder’s statements too', async () => {
    const client = db.client as { query(conn: unknown, obj: object): Promise<{ response: { rows: unknown[] } }> };
    const conn = await db.client.acquireConnection();
    try {
      const ran = await client.query(conn, {
        method: 'raw',
        sql: 'select ?::text as a, ?::int as b',
        bindings: ['x', 1],
        options: { rowMode: 'array' },
      });
      expect(ran.response.rows).to.deep.equal([['x', 1]]);
      // The same text in another row mode, and with an option that is not a row mode (here, type parsers).
      const same = { method: 'raw', sql: 'select ?::text as a, ?::int as b', bindings: ['y', 2] };
      expect((await client.query(conn, { ...same })).response.rows).to.deep.equal([{ a: 'y', b: 2 }]);
      const types = { getTypeParser: () => (text: string) => `parsed ${text}` };
      const parsed = await client.query(conn, { ...same, options: { rowMode: 'array', types } });
      expect(parsed.response.rows).to.deep.equal([['parsed y', 'parsed 2']]);
      expect((await client.query(conn, { ...same, options: { rowMode: 'array' } })).response.rows).to.deep.equal([
        ['y', 2],
      ]);
    } finally {
      await db.client.releaseConnection(conn);
    }
    const built = await db.select(db.raw('?::int as v', [7])).first();
    expect(built).to.deep.equal({ v: 7 });
  });

  it('rejects a failing statement with the driver’s error, its text first in the message, and a query-error event', async () => {
    const errors: unknown[] = [];
    const listen = (err: unknown) => errors.push(err);
    db.on('query-error', listen);
    let caught: (Error & { code?: string }) | undefined;
    try {
      await db.raw('select ?::int as n', ['not a number']);
    } catch (err) {
      caught = err as Error & { code?: string };
    } finally {
      db.removeListener('query-error', listen);
    }
    expect(caught?.code).to.equal('22P02'); // invalid_text_representation, as PostgreSQL reports it
    expect(caught?.message).to.match(/^select \$1::int as n - invalid input syntax for type integer/);
    expect(errors).to.deep.equal([caught]);
    // The connection is still usable.
    expect((await db.raw('select ?::int as n', [1])).rows).to.deep.equal([{ n: 1 }]);
  });
});
