/**
 * Lighter transaction handles for knex (docs/performance.md, "What a write's transaction costs").
 *
 * knex gives each transaction a handle built by `makeKnex`: a new function with its ~150 query-builder methods,
 * accessors and event-emitter methods defined on it one by one, ~30–40 µs of CPU per transaction (measured: a
 * write's CPU 4–9% lower without it). Here the handle is a new function whose prototype holds those same
 * members, taken once from a handle knex built itself; each handle still has its own context, client and events,
 * so a handle kept past its transaction is refused as knex refuses it. The rest of knex's transaction (the promise
 * chain, BEGIN/COMMIT/ROLLBACK, savepoints for nested transactions, sibling ordering) is knex's own class.
 *
 * The knex version is pinned in package-lock.json; `test/host/transactions.test.ts` checks the handle against
 * one built by knex (same members) on every run, so an upgrade that changes them fails there, not in production.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Knex } from 'knex';

const require = createRequire(import.meta.url);
type Loose = Record<string | symbol, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type TransactionClass = new (client: Loose, container: unknown, config?: Loose, outerTx?: Loose | null) => Loose;
const TransactionPG = require('knex/lib/dialects/postgres/execution/pg-transaction.js') as TransactionClass;
const makeKnex = require('knex/lib/knex-builder/make-knex.js') as (client: Loose) => Loose;

/** Data members each handle has of its own (accessors among these names are shared); the rest is shared too. */
const OWN = new Set(['length', 'name', 'arguments', 'caller', 'prototype', 'context', 'client', 'userParams']);
const EVENT_STATE = new Set(['_events', '_eventsCount', '_maxListeners', '_internalListeners']);
const PASSED_EVENTS = ['start', 'query', 'query-error', 'query-response'] as const;

interface Shapes {
  handle: object;
  context: object;
}
const shapesByClass = new WeakMap<object, Shapes>();

/** The handle's and its context's shared members, read off a handle knex builds once per client class. */
function shapes(client: Loose): Shapes {
  const known = shapesByClass.get(client.constructor);
  if (known) return known;
  const model = makeKnex(Object.create(client.constructor.prototype));
  const handle = Object.create(Function.prototype) as object;
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(model))) {
    if (!EVENT_STATE.has(key) && (!OWN.has(key) || 'get' in descriptor)) Object.defineProperty(handle, key, descriptor);
  }
  const context: Loose = {};
  for (const [key, value] of Object.entries(model.context as Loose))
    if (typeof value === 'function') context[key] = value;
  const made = { handle, context };
  shapesByClass.set(client.constructor, made);
  return made;
}

/** What `makeKnex(client)` returns, without defining its members one by one. */
function handleFor(client: Loose): Loose {
  const shared = shapes(client);
  const knex = function (tableName?: unknown, options?: unknown) {
    const builder = knex.context.queryBuilder();
    if (!tableName) {
      knex.context.client.logger.warn(
        'calling knex without a tableName is deprecated. Use knex.queryBuilder() instead.',
      );
      return builder;
    }
    return builder.table(tableName, options);
  } as unknown as Loose;
  Object.setPrototypeOf(knex, shared.handle);
  knex.context = Object.create(shared.context);
  knex.context.client = client;
  knex.context.userParams = {};
  EventEmitter.call(knex);
  knex._internalListeners = [];
  for (const eventName of PASSED_EVENTS) {
    const listener = (...args: unknown[]) => knex.emit(eventName, ...args);
    client.on(eventName, listener);
    knex._internalListeners.push({ eventName, listener });
  }
  return knex;
}

/** A client bound to the transaction's connection, as knex's own: refuses other connections and a finished transaction. */
function boundClient(trx: Loose, client: Loose, connection: unknown): Loose {
  const bound = Object.create(client.constructor.prototype) as Loose;
  for (const key of ['version', 'config', 'driver', 'connectionSettings', 'valueForUndefined', 'logger'])
    bound[key] = client[key];
  bound.transacting = true;
  for (const eventName of PASSED_EVENTS) {
    bound.on(eventName, (...args: unknown[]) => {
      trx.emit(eventName, ...args);
      client.emit(eventName, ...args);
    });
  }
  /** Why the transaction refuses a statement on `conn` now (knex's wording); undefined when it takes it. */
  const refusal = (conn: unknown) =>
    conn !== connection
      ? new Error('Invalid connection for transaction query.')
      : trx.isCompleted()
        ? new Error('Transaction query already complete, run with DEBUG=knex:tx for more info')
        : undefined;
  const queryOn = bound.query as (...args: unknown[]) => unknown;
  bound.query = (conn: unknown, ...rest: unknown[]) =>
    new Promise((resolve) => {
      const refused = refusal(conn);
      if (refused) throw refused;
      resolve(queryOn.call(bound, conn, ...rest));
    });
  // A stream refused before it starts (a finished transaction, or the driver's streaming package missing) is
  // refused on the stream too: once it holds a connection, knex reports such an error only through a promise
  // nobody reads, and the stream would never end. Errors after the start are the driver's to emit, as before.
  const streamOn = bound.stream as (...args: unknown[]) => unknown;
  bound.stream = (conn: unknown, obj: unknown, out: EventEmitter, ...rest: unknown[]) => {
    let started: unknown;
    try {
      const refused = refusal(conn);
      if (refused) throw refused;
      started = streamOn.call(bound, conn, obj, out, ...rest);
    } catch (err) {
      if (out.listenerCount('error')) out.emit('error', err);
      return Promise.reject(err);
    }
    return Promise.resolve(started);
  };
  bound.acquireConnection = () => Promise.resolve(connection);
  bound.releaseConnection = () => Promise.resolve();
  bound.transaction = lightTransaction;
  return bound;
}

/** The handle a transaction's container receives: knex's transactor, built by `handleFor`. */
function transactorFor(trx: Loose, connection: unknown, client: Loose): Loose {
  const transactor = handleFor(client);
  transactor.context.withUserParams = () => {
    throw new Error('Cannot set user params on a transaction - it can only inherit params from main knex instance');
  };
  transactor.isTransaction = true;
  transactor.userParams = trx.userParams || {};
  transactor.context.transaction = function (this: Loose, container: unknown, options?: Loose) {
    const config = options || {};
    if (config.doNotRejectOnRollback === undefined) config.doNotRejectOnRollback = true;
    return this._transaction(container, config, trx);
  };
  transactor.savepoint = (container: unknown, options?: Loose) => transactor.transaction(container, options);
  const nested = !!trx.client.transacting;
  transactor.commit = (value?: unknown) => (nested ? trx.release(connection, value) : trx.commit(connection, value));
  transactor.rollback = (error?: unknown) =>
    nested ? trx.rollbackTo(connection, error) : trx.rollback(connection, error);
  transactor.isCompleted = () => trx.isCompleted();
  return transactor;
}

/** knex's PostgreSQL transaction, its handle built by `transactorFor` (the steps of knex's `_onAcquire`). */
class LightTransaction extends TransactionPG {
  async _onAcquire(container: (transactor: Loose) => unknown, connection: unknown) {
    const client = (this.trxClient = boundClient(this, this.client, connection));
    const init = this.client.transacting ? this.savepoint(connection) : this.begin(connection);
    const executionPromise = new Promise((resolve, reject) => {
      this._resolver = resolve;
      this._rejecter = reject;
    });
    init
      .then(() => {
        const transactor = (this.transactor = transactorFor(this, connection, client));
        if (this.outerTx) transactor.parentTransaction = this.outerTx.transactor;
        transactor.executionPromise = executionPromise;
        // A thenable from the container commits or rolls back with it; a throw rolls back.
        let result: unknown;
        try {
          result = container(transactor);
        } catch (err) {
          result = Promise.reject(err);
        }
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>)
            .then((value) => transactor.commit(value))
            .catch((err) => transactor.rollback(err));
        }
        return null;
      })
      .catch((err: unknown) => this._rejecter(err));
    return executionPromise;
  }
}

function lightTransaction(this: Loose, container: unknown, config?: Loose, outerTx?: Loose | null) {
  return new LightTransaction(this, container, config, outerTx);
}

/** Makes `db.transaction()` (and every transaction nested in it) build its handle the light way. */
export function lightTransactions<T extends Knex>(db: T): T {
  (db.client as unknown as Loose).transaction = lightTransaction;
  return db;
}
