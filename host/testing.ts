/**
 * Boot a real kernel for tests: chosen plugins, config overrides, an isolated database (in-memory
 * PGlite by default; a fresh schema on PostgreSQL when `DATABASE_URL` is set), captured logs, and
 * an HTTP handler for supertest. For our own tests and for plugin authors.
 *
 * @example
 * const t = await bootTestKernel({ plugins: ['system'] });
 * const res = await t.http().get('/healthz');
 * await t.close();
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import type Koa from 'koa';
import supertest from 'supertest';
import {
  ANONYMOUS,
  BUILTIN_PLUGINS_DIR,
  discoverPlugins,
  type Kernel,
  type KernelError,
  type Principal,
} from '../kernel';
import { createKernel } from './boot';
import { finishConfig, type Config } from './config';
import { createDb } from './db';
export { sqlDuring } from './db';
import { createApp } from './http/app';
import { createLogger } from './log';
import { lightTransactions } from './transactions';

export interface TestKernelOptions {
  /** Enabled plugins; their dependencies are enabled too. Default: the default set. */
  plugins?: string[];
  /** Enable exactly `plugins`, without their dependencies (loader tests). */
  exactPlugins?: boolean;
  /** Merged into the config. */
  config?: Record<string, unknown>;
  pluginDirs?: string[];
  /** Skip migrations (loader tests). */
  migrate?: boolean;
  logLevel?: string;
}

export interface TestKernel {
  kernel: Kernel;
  config: Config;
  /** Every log line written so far, as JSON text. */
  logs: string[];
  /** The Koa app (built on first use). */
  app(): Promise<Koa>;
  /** A supertest agent over `app.callback()`: no port is opened. */
  http(): Promise<supertest.Agent>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * Awaits a promise that must reject and returns the error, so a test can assert on its `code`.
 * @example expect((await failure(t.kernel.call({ … }))).code).to.equal('E_FORBIDDEN');
 */
export async function failure(p: Promise<unknown>): Promise<KernelError> {
  try {
    await p;
  } catch (err) {
    return err as KernelError;
  }
  throw new Error('expected a failure, but the promise resolved');
}

/** Makes a principal holding the given permissions, for in-process calls. */
export function principalWith(permissions: string[], contactId: number | null = null): Principal {
  return { ...ANONYMOUS, contactId, via: contactId ? 'test' : 'anonymous', permissions: new Set(permissions) };
}

export async function bootTestKernel(opts: TestKernelOptions = {}): Promise<TestKernel> {
  const url = process.env.DATABASE_URL;
  const schema = url ? `t_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}` : undefined;
  const plugins =
    opts.plugins && !opts.exactPlugins ? withDependencies(opts.plugins, opts.pluginDirs ?? []) : opts.plugins;
  const config = finishConfig({
    mode: 'test',
    ...(plugins ? { plugins } : {}),
    ...opts.config,
    database: url ? { url, schema } : { memory: true },
    log: { level: opts.logLevel ?? 'debug' },
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const log = createLogger({ level: config.log.level, destination, maxValueLength: config.limits.logValueBytes });
  const db = url ? createDb(config) : await freshPglite();
  const kernel = await createKernel({ config, log, db, migrate: opts.migrate, pluginDirs: opts.pluginDirs }).catch(
    async (err) => {
      await dropSchema(url, schema);
      throw err;
    },
  );
  let app: Koa | undefined;
  const getApp = async () => (app ??= await createApp(kernel));
  return {
    kernel,
    config,
    logs,
    app: getApp,
    http: async () => supertest.agent((await getApp()).callback()),
    async close() {
      await kernel.close();
      await dropSchema(url, schema);
    },
  };
}

/** The plugins and, transitively, what they depend on (as installed). */
function withDependencies(names: string[], dirs: string[]): string[] {
  const { found } = discoverPlugins([BUILTIN_PLUGINS_DIR, ...dirs]);
  const deps = new Map(found.map((p) => [p.name, p.manifest.dependencies]));
  const out = new Set<string>();
  const add = (n: string) => {
    if (out.has(n)) return;
    out.add(n);
    (deps.get(n) ?? []).forEach(add);
  };
  names.forEach(add);
  return [...out];
}

let template: Promise<Blob> | undefined;

function readPackageVersion(name: string): string {
  // The package's exports hide package.json; find it next to the resolved entry point.
  let dir = path.dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

/**
 * A new in-memory PGlite cloned from an initialised template: initdb takes seconds, a clone well
 * under one. The template is cached in the OS temp folder per PGlite version.
 */
async function freshPglite(): Promise<Knex> {
  template ??= (async () => {
    const version = readPackageVersion('@electric-sql/pglite');
    const file = path.join(tmpdir(), `crm-pglite-template-${version}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const pg = new PGlite();
    await pg.waitReady;
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
    return dump;
  })();
  const pglite = new PGlite({ loadDataDir: await template });
  await pglite.waitReady;
  return lightTransactions(
    knexFactory({
      client: ClientPGLite as unknown as typeof knexFactory.Client,
      dialect: 'postgres',
      connection: () => ({ pglite }),
    } as Knex.Config),
  );
}

/**
 * Drops a test's PostgreSQL schema and the job queue's beside it (`<schema>_pgboss`); nothing without a URL. For a
 * test that runs `crm` processes on a schema of its own.
 */
export async function dropSchema(url: string | undefined, schema: string | undefined): Promise<void> {
  if (!url || !schema) return;
  const db = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    for (const name of [schema, `${schema}_pgboss`]) await db.raw('drop schema if exists ?? cascade', [name]);
  } finally {
    await db.destroy();
  }
}
