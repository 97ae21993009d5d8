/**
 * The embedded engine shared with CLI commands over the socket: a transaction of either side runs whole,
 * never with the other side's statements inside it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { closeDb, createDb, embeddedSocketPath, finishConfig, shareEmbedded } from '../../host';

const placement = (thread: boolean) => (thread ? ' (engine in a worker thread)' : '');

for (const embeddedThread of [false, true])
  describe(`host: the embedded engine shared over the socket takes turns with the server${placement(embeddedThread)}`, function () {
    this.timeout(60000);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-shared-'));
    const config = finishConfig({ dataDir, database: { embeddedThread }, log: { level: 'silent' } });
    let server: Knex;
    let cli: Knex;
    const rows = async (db: Knex) => Number(((await db('turns').count({ n: '*' })) as Array<{ n: string }>)[0].n);
    // Time for the other side to get in, if it could (what is asserted is what it saw, not how long it took).
    const pause = (db: Knex) => db.raw('select pg_sleep(0.3)');

    before(async () => {
      server = createDb(config);
      await server.raw('create table turns (id serial primary key)');
      await shareEmbedded(server, config);
      const socket = embeddedSocketPath(config);
      cli = knexFactory({
        client: 'pg',
        connection: { host: path.dirname(socket), port: 5432, user: 'postgres', database: 'postgres' },
        pool: { min: 0, max: 1 },
      });
      await cli.raw('select 1'); // connected before the tests, so each side is ready to get in at once
    });
    after(async () => {
      await cli?.destroy();
      if (server) await closeDb(server);
    });

    it('a CLI statement waits for the server transaction, and never sees its uncommitted rows', async () => {
      let seen: Promise<number> | undefined;
      await server
        .transaction(async (trx) => {
          await trx('turns').insert({});
          seen = rows(cli);
          await pause(trx);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(await seen).to.equal(0);
    });

    it('a server statement waits for the CLI transaction, and never sees its uncommitted rows', async () => {
      let seen: Promise<number> | undefined;
      await cli
        .transaction(async (trx) => {
          await trx('turns').insert({});
          seen = rows(server);
          await pause(trx);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(await seen).to.equal(0);
      expect(await rows(server)).to.equal(0);
    });

    it('both sides commit in turn', async () => {
      await Promise.all([
        server.transaction(async (trx) => {
          await trx('turns').insert({});
          await pause(trx);
        }),
        cli.transaction(async (trx) => {
          await trx('turns').insert({});
          await pause(trx);
        }),
      ]);
      expect(await rows(server)).to.equal(2);
      expect(await rows(cli)).to.equal(2);
    });
  });
