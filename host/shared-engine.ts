/**
 * The embedded engine is one PostgreSQL session. This process reaches it through knex's single pooled
 * connection, and CLI commands through PGlite's socket server, which runs their statements straight on the
 * engine. Left alone, a CLI statement could land inside one of the server's open transactions (or a server
 * statement inside the CLI's). So a socket statement first takes knex's connection, and keeps it while it
 * leaves a transaction open: each side's transaction runs whole, and the other side waits its turn.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { EngineHandle } from './engine-thread';
import type { Logger } from '../kernel';
import type { Db } from './db';

/** How long a CLI transaction may sit idle holding the engine before it is rolled back and the engine freed. */
export const IDLE_TRANSACTION_MS = 30_000;

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}

/** The engine as the socket server should see it: `runExclusive` takes turns with this process's knex. */
export function turnTakingEngine(db: Db, engine: EngineHandle, logger?: Logger): PGlite {
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
      else {
        await release();
        // Listeners may query the engine: they run once the CLI statement has given it back.
        const batch = heard.splice(0);
        if (batch.length) setImmediate(() => batch.forEach(([channel, payload]) => dispatch(db, channel, payload)));
      }
    }
  };
  /** Notifications a CLI statement sent, delivered when it is done. */
  const heard: Array<[string, string]> = [];
  type StreamOptions = { onRawData: (chunk: Uint8Array) => void };
  // What CLI statements NOTIFY (a change announced on the change bus) reaches this process's listeners too.
  const execProtocolRawStream = (message: Uint8Array, options: StreamOptions) => {
    const scan = notificationScanner((channel, payload) => heard.push([channel, payload]));
    return engine.execProtocolRawStream(message, {
      ...options,
      onRawData: (chunk) => {
        scan(chunk);
        options.onRawData(chunk);
      },
    });
  };
  return new Proxy(engine as PGlite, {
    get(target, property) {
      if (property === 'runExclusive') return runExclusive;
      if (property === 'execProtocolRawStream') return execProtocolRawStream;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

type NotificationListener = (channel: string, payload: string) => void;
const listeners = new WeakMap<Db, NotificationListener[]>();

/**
 * Runs `fn` for every NOTIFY a CLI process sends through the shared socket (PGlite's own `listen` does not
 * hear statements run through its socket server): how the change bus reaches a running embedded server.
 */
export function onEmbeddedNotification(db: Db, fn: NotificationListener): void {
  listeners.set(db, [...(listeners.get(db) ?? []), fn]);
}

function dispatch(db: Db, channel: string, payload: string): void {
  for (const fn of listeners.get(db) ?? []) fn(channel, payload);
}

/** Finds NotificationResponse messages ('A') in a backend message stream that may arrive in pieces. */
function notificationScanner(found: NotificationListener): (chunk: Uint8Array) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    let buffer = pending.length
      ? Buffer.concat([pending, chunk])
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let offset = 0;
    while (buffer.length - offset >= 5) {
      const length = buffer.readInt32BE(offset + 1);
      if (length < 4 || buffer.length - offset < 1 + length) break;
      if (buffer[offset] === 0x41) {
        // Int32 process id, then the channel and the payload as NUL-terminated strings.
        const body = buffer.subarray(offset + 9, offset + 1 + length);
        const [channel, payload] = body.toString('utf8').split('\0');
        found(channel, payload ?? '');
      }
      offset += 1 + length;
    }
    buffer = buffer.subarray(offset);
    pending = buffer.length ? Buffer.from(buffer) : Buffer.alloc(0);
  };
}
