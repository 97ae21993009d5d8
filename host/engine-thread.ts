/**
 * The embedded database in a worker thread (`database.embeddedThread`; bin/pglite-worker.mjs runs PGlite
 * there). In the main thread PGlite runs PostgreSQL as WebAssembly inside the HTTP work, one core for
 * both; in a worker, statements run on the second core beside the requests. Every call crosses a message
 * port (a copy of its rows, two thread wake-ups), so a statement costs more and a read page less: measured
 * in docs/performance.md (Embedded engine in a thread). The handle below is the part of PGlite's interface
 * knex-pglite and the socket server use.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { projectRoot } from './embedded';

/** What knex-pglite and the shared socket use of an engine. */
export type EngineHandle = Pick<
  PGlite,
  'waitReady' | 'query' | 'exec' | 'close' | 'execProtocolRawStream' | 'runExclusive' | 'isInTransaction'
>;

/** The worker script, in bin/ beside `crm.mjs`. */
function engineWorkerScript(): string {
  return path.join(projectRoot(), 'bin', 'pglite-worker.mjs');
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  onRawData?: (chunk: Uint8Array) => void;
}

interface Reply {
  id: number;
  chunk?: Uint8Array;
  result?: unknown;
  error?: Record<string, unknown> & { message: string };
  tx?: boolean;
}

/** An error from the thread, as PostgreSQL's driver errors look (code, detail, constraint… as properties). */
function revive(data: Record<string, unknown> & { message: string }): Error {
  return Object.assign(new Error(data.message), data);
}

/** Query options without functions (parsers cannot cross a thread). */
function crossable(options: unknown): unknown {
  if (!options || typeof options !== 'object') return options;
  return Object.fromEntries(Object.entries(options).filter(([, v]) => typeof v !== 'function'));
}

/**
 * Opens `dir` in an engine thread. `startParams` are PostgreSQL's `-c` settings; `template` the cluster
 * a fresh folder starts from. The thread keeps the process alive only while a call is under way, as an
 * engine in the main thread would.
 */
export function threadEngine(dir: string, startParams: string[], template?: Uint8Array): EngineHandle {
  const worker = new Worker(engineWorkerScript());
  const pending = new Map<number, Pending>();
  let next = 1;
  let inTransaction = false;
  let stopped: Error | undefined;
  const track = () => (pending.size ? worker.ref() : worker.unref());
  const fail = (err: Error) => {
    stopped ??= err;
    for (const p of pending.values()) p.reject(stopped);
    pending.clear();
    track();
  };
  worker.on('message', (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    if (reply.chunk) return p.onRawData?.(reply.chunk);
    pending.delete(reply.id);
    inTransaction = !!reply.tx;
    track();
    if (reply.error) p.reject(revive(reply.error));
    else p.resolve(reply.result);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the embedded database thread stopped (exit code ${code})`)));
  const send = <T>(msg: Record<string, unknown>, onRawData?: (chunk: Uint8Array) => void): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    return new Promise<T>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onRawData });
      track();
      worker.postMessage({ ...msg, id });
    });
  };
  const waitReady = send<void>({ op: 'open', dir, startParams, template });
  waitReady.catch(() => undefined); // awaited by the first query; an early failure is reported there
  let closing: Promise<void> | undefined;
  const handle = {
    waitReady,
    query: (sql: string, params?: unknown[], options?: unknown) =>
      send({ op: 'query', sql, params, options: crossable(options) }),
    exec: (sql: string, options?: unknown) => send({ op: 'exec', sql, options: crossable(options) }),
    execProtocolRawStream: (message: Uint8Array, options: { onRawData: (chunk: Uint8Array) => void }) =>
      send({ op: 'raw', message }, options.onRawData),
    // The socket server takes knex's one connection before it calls this (host/shared-engine.ts), so no
    // statement of this process can come between; the thread runs one statement at a time.
    runExclusive: <T>(fn: () => Promise<T>) => fn(),
    isInTransaction: () => inTransaction,
    close: () =>
      (closing ??= send<void>({ op: 'close' })
        .catch(() => undefined)
        .then(async () => {
          stopped ??= new Error('the embedded database is closed');
          await worker.terminate();
        })),
  };
  return handle as unknown as EngineHandle;
}
