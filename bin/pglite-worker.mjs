// The embedded database in a worker thread (host/engine-thread.ts is its other end; `database.embeddedThread`).
// PGlite runs PostgreSQL as WebAssembly in the thread that opens it: here its statements run on the second
// core beside the main thread's HTTP work. It loads PGlite and compiles its WebAssembly as soon as it starts,
// and opens the data folder when the main thread sends `open`.
import { parentPort } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
/* global WebAssembly, Blob */

const pgliteUrl = import.meta.resolve('@electric-sql/pglite');
const loaded = import('@electric-sql/pglite');
// Compiled here, off the main thread; PGlite compiles it itself if this fails.
const compiled = readFile(new URL('./pglite.wasm', pgliteUrl))
  .then((bytes) => WebAssembly.compile(bytes))
  .catch(() => undefined);

/** @type {import('@electric-sql/pglite').PGlite | undefined} */
let db;

/** An error as plain data: PostgreSQL's fields (code, detail, constraint…) survive the crossing. */
function plain(err) {
  const out = { name: err?.name ?? 'Error', message: err?.message ?? String(err) };
  if (err && typeof err === 'object')
    for (const [key, value] of Object.entries(err))
      if (typeof value !== 'function' && key !== 'query') out[key] = value;
  return out;
}

function inTransaction() {
  try {
    return db ? db.isInTransaction() : false;
  } catch {
    return false;
  }
}

async function run(msg) {
  switch (msg.op) {
    case 'open': {
      const { PGlite } = await loaded;
      const wasm = await compiled;
      db = new PGlite(msg.dir, {
        startParams: [...PGlite.defaultStartParams, ...msg.startParams],
        ...(wasm ? { pgliteWasmModule: wasm } : {}),
        ...(msg.template ? { loadDataDir: new Blob([msg.template]) } : {}),
      });
      await db.waitReady;
      return null;
    }
    case 'query':
      return db.query(msg.sql, msg.params, msg.options);
    case 'exec':
      return db.exec(msg.sql, msg.options);
    case 'raw':
      // A copy of each chunk: it may be a view on the engine's whole memory, which a post would clone.
      return db.execProtocolRawStream(msg.message, {
        onRawData: (chunk) => parentPort.postMessage({ id: msg.id, chunk: chunk.slice() }),
      });
    case 'close':
      await db?.close();
      db = undefined;
      return null;
    default:
      throw new Error(`unknown operation ${msg.op}`);
  }
}

parentPort.on('message', (msg) => {
  run(msg).then(
    (result) => parentPort.postMessage({ id: msg.id, result, tx: inTransaction() }),
    (err) => parentPort.postMessage({ id: msg.id, error: plain(err), tx: inTransaction() }),
  );
});
