/**
 * The one database handle: PostgreSQL through `pg` when a URL is configured, otherwise embedded
 * PGlite (in a data folder, or in memory). One SQL dialect, so one set of migrations; each plugin
 * ships its own `migrations/` folder and knex's migrator runs them, every batch in a transaction.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { KernelError, type Logger, type Storage } from '../kernel';
import type { Config } from './config';
import { migrate } from './migrator';
import { pipelineReads, pipelinedReadsOf } from './pipelined-reads';
import { preparedStatements } from './prepared-statements';
import { copyMigratedTemplate } from './template';
import { threadEngine } from './engine-thread';
import { lightTransactions } from './transactions';

export { migrate, pendingMigrations } from './migrator';
import {
  attachedDb,
  clusterTemplate,
  embeddedSocketPath,
  lockDataDir,
  rememberEmbedded,
  stopSharing,
} from './embedded';

export { SOCKET_NAME, embeddedSocketPath, shareEmbedded } from './embedded';

export type Db = Knex;

export interface CreateDbOptions {
  /**
   * When another process (a running `crm serve`) holds the embedded database, connect through the
   * local socket it shares instead of failing (CLI commands). Without a socket the error names the process.
   */
  attach?: boolean;
}

/**
 * Opens the database named by the config. Nothing is sent until the first query. Its transactions build their
 * handles the light way (host/transactions.ts).
 */
export function createDb(config: Config, logger?: Logger, opts: CreateDbOptions = {}): Db {
  return lightTransactions(openDb(config, logger, opts));
}

function openDb(config: Config, logger: Logger | undefined, opts: CreateDbOptions): Db {
  const { url, memory, schema } = config.database;
  // knex would print its own warnings (with stacks) to the console; they belong in our log.
  const log = {
    warn: (m: unknown) => logger?.debug({ knex: String(m) }, 'knex warning'),
    error: (m: unknown) => logger?.debug({ knex: String(m) }, 'knex error'),
    deprecate: (m: unknown) => logger?.debug({ knex: String(m) }, 'knex deprecation'),
    debug: () => undefined,
  };
  if (url) {
    const db = preparedStatements(
      knexFactory({
        client: 'pg',
        log,
        // limits.statementTimeoutMs: the server stops a statement that runs longer (SQLSTATE 57014).
        connection: config.limits?.statementTimeoutMs
          ? { connectionString: url, statement_timeout: config.limits.statementTimeoutMs }
          : url,
        pool: {
          min: 0,
          max: 10,
          // A per-run schema keeps test runs and tenants apart on one server.
          afterCreate: schema
            ? (
                conn: { query: (sql: string, cb: (err: Error | null) => void) => void },
                done: (err: Error | null, c: unknown) => void,
              ) =>
                conn.query(`create schema if not exists "${schema}"; set search_path to "${schema}"`, (err) =>
                  done(err, conn),
                )
            : undefined,
        },
      }),
    );
    const { connections = 0, lightMs = 3, stallMs = 20 } = config.database.pipeline ?? {};
    return pipelineReads(db, { connections, lightMs, stallMs, logger });
  }
  if (memory)
    return knexFactory({
      client: ClientPGLite as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: {},
      log,
    });
  const dir = path.resolve(config.root, config.dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  let unlock: () => void;
  try {
    unlock = lockDataDir(dir);
  } catch (err) {
    const socket = embeddedSocketPath(config);
    if (opts.attach && (err as KernelError).details?.owner && existsSync(socket)) return attachedDb(socket, log);
    throw err;
  }
  // PostgreSQL's default 128MB buffer cache would sit in this process's memory, on top of the OS page
  // cache; 32MB keeps a loaded server ~120 MB smaller at no measured cost (docs/performance.md, Memory).
  // A start parameter, not postgresql.conf: PGlite would replace that whole file (initdb's settings too).
  // A fresh folder starts as a copy of the migrated cluster `npm ci` cached for this plan (host/template.ts),
  // else from the initialised cluster (bin/pglite-template.mjs), and only without either runs initdb.
  const fresh = readdirSync(dir).length === 0;
  const template = fresh && !copyMigratedTemplate(config, dir) ? clusterTemplate() : undefined;
  const settings = ['-c', `shared_buffers=${config.database.embeddedSharedBuffers}`];
  // database.embeddedThread: the engine runs in a worker thread beside this one (host/engine-thread.ts).
  const pglite = config.database.embeddedThread
    ? threadEngine(dir, settings, template)
    : new PGlite(dir, {
        startParams: [...PGlite.defaultStartParams, ...settings],
        ...(template ? { loadDataDir: new Blob([template]) } : {}),
      });
  const db = knexFactory({
    client: ClientPGLite as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }),
    log,
  } as Knex.Config);
  releases.set(db, unlock);
  rememberEmbedded(db, pglite);
  return db;
}

const releases = new WeakMap<Db, () => void>();

/**
 * The SQL statements sent on `db` while `fn` runs, in order (knex `query` events), for a test that pins what
 * an action costs, or code that must know whether anything was sent meanwhile (on a transaction, at least
 * the statements sent through it; on the shared pool, every caller's).
 * @example expect(await sqlDuring(t.kernel.db, () => call())).to.have.length(1);
 */
export async function sqlDuring(db: Knex, fn: () => Promise<unknown>): Promise<string[]> {
  const sqls: string[] = [];
  const on = (q: { sql: string }) => {
    sqls.push(q.sql);
  };
  db.on('query', on);
  try {
    await fn();
  } finally {
    db.removeListener('query', on);
  }
  return sqls;
}

/** Ends the pool (or closes the embedded database) and releases the data-folder lock. */
export async function closeDb(db: Db): Promise<void> {
  try {
    await stopSharing(db);
    await pipelinedReadsOf(db)?.close();
    await db.destroy();
  } finally {
    releases.get(db)?.();
    releases.delete(db);
  }
}

/** Which engine a handle talks to, for `System.get` and logs. */
export function engineOf(db: Db): 'postgresql' | 'pglite' {
  return db.client.config.client === 'pg' ? 'postgresql' : 'pglite';
}

/** Answers whether the database responds; used by `/healthz` and at start. */
export async function ping(db: Db): Promise<void> {
  try {
    await db.raw('select 1');
  } catch (err) {
    throw new KernelError('E_DATABASE', `Database unreachable: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Waits for the database at start: PostgreSQL may still be coming up (a container started beside it).
 * Retries `ping` with doubling pauses (0.25 s up to 5 s) for at most `retryMs`, logging each failure; a
 * refused password or a missing database is not worth waiting for and fails at once.
 */
export async function connectWithRetry(db: Db, retryMs: number, logger?: Logger): Promise<void> {
  const deadline = Date.now() + retryMs;
  for (let pause = 250; ; pause = Math.min(pause * 2, 5000)) {
    try {
      return await ping(db);
    } catch (err) {
      const code = ((err as KernelError).cause as { code?: string } | undefined)?.code ?? '';
      const permanent = /^(28|3D)/.test(code);
      if (permanent || Date.now() + pause > deadline) throw err;
      logger?.warn({ err: (err as Error).message, retryInMs: pause }, 'database not reachable yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The handle and its operations as the kernel receives them (see Storage in kernel/types.ts). */
export function storageOf(db: Db, config?: Config, logger?: Logger): Storage {
  const retryMs = config?.database.url ? config.database.connectRetryMs : 0;
  return {
    db,
    ping: () => ping(db),
    connect: () => connectWithRetry(db, retryMs, logger),
    migrate: (plugins) => migrate(db, plugins),
    close: () => closeDb(db),
  };
}
