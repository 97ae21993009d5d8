/**
 * The embedded engine is one PostgreSQL session. This process reaches it through knex's single pooled
 * connection, and CLI commands through PGlite's socket server, which runs their statements straight on the
 * engine. Left alone, a CLI statement could land inside one of the server's open transactions (or a server
 * statement inside the CLI's). So a socket statement first takes knex's connection, and keeps it while it
 * leaves a transaction open: each side's transaction runs whole, and the other side waits its turn.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../kernel';
import type { Db } from './db';

/** How long a CLI transaction may sit idle holding the engine before it is rolled back and the engine freed. */
export const IDLE_TRANSACTION_MS = 30_000;

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/** The engine as the socket server should see it: `runExclusive` takes turns with this process's knex. */
export function turnTakingEngine(db: Db, engine: PGlite, logger?: Logger): PGlite {
  const pool = db.client as unknown as PoolClient;
  let held: unknown = null;
  let idle: NodeJS.Timeout | undefined;
  const release = async () => {
    const connection = held;
    held = null;
    if (connection) await pool.releaseConnection(connection);
  };
  // A client that went away mid-transaction must not hold the server forever.
  const rollBackIdle = async () => {
    logger?.warn('a CLI transaction on the shared embedded database sat idle; rolled back');
    await engine.exec('ROLLBACK').catch(() => undefined);
    await release();
  };
  const runExclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
    clearTimeout(idle);
    held ??= await pool.acquireConnection();
    try {
      return await engine.runExclusive(fn);
    } finally {
      if (engine.isInTransaction()) idle = setTimeout(() => void rollBackIdle(), IDLE_TRANSACTION_MS).unref();
      else await release();
    }
  };
  return new Proxy(engine, {
    get(target, property) {
      if (property === 'runExclusive') return runExclusive;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
