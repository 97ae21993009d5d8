/**
 * The embedded database's single-process rules: the data-folder lock (one clear line naming the holder),
 * sharing a running server's engine with local CLI commands over a unix socket, and the initialised
 * cluster a fresh data folder starts from.
 */
import { chmodSync, closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { KernelError, type Logger } from '../kernel';
import type { Config } from './config';
import type { Db } from './db';
import { turnTakingEngine } from './shared-engine';
import type { EngineHandle } from './engine-thread';

/** The file name PostgreSQL clients look for in a socket folder (`host=<dataDir>`, port 5432). */
export const SOCKET_NAME = '.s.PGSQL.5432';

/** Where a running server shares its embedded database: `<dataDir>/.s.PGSQL.5432`. */
export function embeddedSocketPath(config: Config): string {
  return path.join(path.resolve(config.root, config.dataDir), SOCKET_NAME);
}

/** A `pg` client over the socket a running server shares (one connection: the server multiplexes onto one engine). */
export function attachedDb(socket: string, log: Knex.Config['log']): Db {
  return knexFactory({
    client: 'pg',
    log,
    connection: { host: path.dirname(socket), port: 5432, user: 'postgres', database: 'postgres' },
    pool: { min: 0, max: 1 },
  });
}

const embedded = new WeakMap<Db, EngineHandle>();

/** Records the engine behind an embedded handle, so `shareEmbedded` can serve it. */
export function rememberEmbedded(db: Db, pglite: EngineHandle): void {
  embedded.set(db, pglite);
}

/**
 * Lets other local processes (CLI commands) into the embedded database while this process holds it:
 * PGlite's socket server on `<dataDir>/.s.PGSQL.5432`, a unix socket only this machine's users with
 * access to the data folder can open (never TCP). Returns how to stop it; a no-op on PostgreSQL or in memory.
 */
export async function shareEmbedded(db: Db, config: Config, logger?: Logger): Promise<() => Promise<void>> {
  const pglite = embedded.get(db);
  if (!pglite) return async () => undefined;
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const socket = embeddedSocketPath(config);
  // We hold the data-folder lock, so a socket file left here is a crashed run's.
  if (existsSync(socket)) unlinkSync(socket);
  const engine = turnTakingEngine(db, pglite, logger);
  const server = new PGLiteSocketServer({ db: engine, path: socket, maxConnections: 8 });
  await server.start();
  chmodSync(socket, 0o600); // this user only (a unix socket needs write permission to connect)
  logger?.debug({ socket }, 'embedded database shared on a local socket');
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= server.stop().finally(() => {
      if (existsSync(socket)) unlinkSync(socket);
    }));
  stops.set(db, stop);
  return stop;
}

const stops = new WeakMap<Db, () => Promise<void>>();

/** Stops sharing (closeDb calls it before closing the engine). */
export async function stopSharing(db: Db): Promise<void> {
  await stops.get(db)?.();
}

/** The project folder: the parent of host/, or the one a compiled tree names (bin/build.mjs writes it). */
export function projectRoot(): string {
  const parent = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    const marker = JSON.parse(readFileSync(path.join(parent, 'package.json'), 'utf8')) as { crmSourceRoot?: string };
    return marker.crmSourceRoot ? path.resolve(parent, marker.crmSourceRoot) : parent;
  } catch {
    return parent;
  }
}

const packageRoot = projectRoot();

/** The installed PGlite's version, and the folder its templates are cached in (bin/pglite-template.mjs). */
export function templateCache(): { version: string; dir: string } | undefined {
  try {
    const pkg = path.join(packageRoot, 'node_modules/@electric-sql/pglite/package.json');
    const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
    return { version, dir: path.join(packageRoot, 'node_modules/.cache/crm-service') };
  } catch {
    return undefined;
  }
}

/** The cached initialised cluster for the installed PGlite (see bin/pglite-template.mjs), when built. */
export function clusterTemplate(): Buffer | undefined {
  const cache = templateCache();
  const file = cache && path.join(cache.dir, `pglite-${cache.version}-cluster.tar`);
  return file && existsSync(file) ? readFileSync(file) : undefined;
}

/**
 * The embedded database is single-process: a second process opening the same folder would corrupt
 * it. A lock file with the owner's pid refuses that with one clear line (a stale lock is taken over).
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8'));
      if (owner && isAlive(owner)) {
        throw new KernelError(
          'E_DATABASE',
          `The embedded database in ${dir} is in use by process ${owner}. ` +
            'Stop it, or use PostgreSQL (DATABASE_URL) to run several instances.',
          { details: { owner } },
        );
      }
      unlinkSync(file);
    }
  }
  throw new KernelError('E_DATABASE', `Cannot lock the embedded database in ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
