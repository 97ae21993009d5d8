import type { Knex } from 'knex';

/** Distinct statement texts named per process; beyond this, queries run unnamed (no server memory growth). */
export const MAX_PREPARED = 2000;

/** What a statement text becomes on its way to `pg`, worked out once per text. */
interface Shape {
  /** The text with knex's `?` placeholders as `$1…` (knex's own `positionBindings`). */
  text: string;
  /** The prepared statement's name, when the text is one of the first MAX_PREPARED. */
  name?: string;
  /** What is handed to `pg` for this text, by row mode (see `carrier`). */
  carriers?: Map<unknown, object>;
}

interface QueryObject {
  sql: string;
  bindings?: unknown[];
  options?: Record<string, unknown>;
  response?: unknown;
}

type Callback = (err: Error | null, response: unknown) => void;

interface PgConnection {
  __knexUid?: string;
  __knexTxId?: string;
  query(config: object, values: unknown[], callback: Callback): void;
  query(config: object, callback: Callback): void;
}

interface PgClient {
  positionBindings(sql: string): string;
  prepBindings(bindings: unknown[] | undefined): unknown[] | undefined;
  emit(event: string, ...args: unknown[]): boolean;
  query(connection: PgConnection, query: string | QueryObject): Promise<QueryObject>;
}

/**
 * The pool's statements, sent the short way, and named.
 *
 * Named: every parameterised query is a prepared statement named by its text, so each PostgreSQL connection
 * parses and plans a query shape once and can reuse a generic plan: planning costs more than running the
 * typical 25-row page. Only queries with bindings are named (they already use the extended protocol, which
 * allows one statement per text).
 *
 * The short way: knex's `client.query` (what its runner and the store's kept plans call) is replaced by one that
 * does what knex's does for `pg` — `?` placeholders positioned as `$n`, the `query` event with the same object,
 * the driver called with the text, values and options, the response kept on the query object, and on an error
 * the statement prefixed to the message and a `query-error` event — with the positioned text and the name
 * worked out once per text instead of on every call (knex re-scans the text with a regular expression, copies
 * the options with lodash, and wraps two promises). ~10 µs of a light read (docs/performance.md). A transaction's
 * client is built by knex from the class, not this instance, so statements in transactions take knex's own path.
 * knex's `DEBUG=knex:query` output is not written for the others (the `query` event carries the same).
 */
export function preparedStatements(db: Knex): Knex {
  const shapes = new Map<string, Shape>();
  const client = db.client as unknown as PgClient;
  // Texts without bindings (BEGIN, DDL, statements with their values inline) are positioned each time and
  // not kept: they are short or rare, and would otherwise fill the names meant for the reads and writes.
  const shapeOf = (sql: string, bound: boolean): Shape => {
    if (!bound) return { text: client.positionBindings(sql) };
    let shape = shapes.get(sql);
    if (!shape) {
      shape = { text: client.positionBindings(sql) };
      if (shapes.size < MAX_PREPARED) shapes.set(sql, (shape = { ...shape, name: `crm_${shapes.size}` }));
    }
    return shape;
  };
  client.query = function query(this: PgClient, connection, queryParam) {
    const obj: QueryObject = typeof queryParam === 'string' ? { sql: queryParam } : queryParam;
    obj.bindings = this.prepBindings(obj.bindings);
    const bound = !!obj.bindings?.length;
    const shape = shapeOf(obj.sql, bound);
    obj.sql = shape.text;
    const { __knexUid, __knexTxId } = connection;
    this.emit('query', Object.assign({ __knexUid, __knexTxId }, obj));
    if (!obj.sql) return Promise.reject(new Error('The query is empty'));
    return new Promise((resolve, reject) => {
      const done: Callback = (err, response) => {
        if (!err) {
          obj.response = response;
          resolve(obj);
          return;
        }
        // As knex words it (its formatter inlines only `?` left in a positioned text: none for ours).
        err.message = `${obj.sql} - ${err.message}`;
        this.emit('query-error', err, Object.assign({ __knexUid, __knexTxId }, obj));
        reject(err);
      };
      const kept = shape.name ? carrier(shape, obj.options) : undefined;
      if (kept) return connection.query(kept, obj.bindings ?? [], done);
      const config: Record<string, unknown> = { text: obj.sql, values: obj.bindings ?? [] };
      if (obj.options) Object.assign(config, obj.options);
      if (shape.name && !obj.options?.name) config.name = shape.name;
      connection.query(config, done);
    });
  };
  return db;
}

/**
 * A named statement's config as `pg` is handed it: an object with no properties of its own, whose prototype
 * holds the text, name and row mode. `pg` copies a config's own properties, descriptors and all, into a new
 * object on every query (its `cloneQueryConfig`, ~2% of a light read); this one has none to copy, and the
 * values and callback are given beside it. Only for options that are a row mode or nothing (what knex's
 * builders and the store's plans pass); anything else is handed over as knex would.
 */
function carrier(shape: Shape, options: Record<string, unknown> | undefined): object | undefined {
  let rowMode: unknown;
  if (options) {
    for (const key in options) if (key !== 'rowMode') return undefined;
    rowMode = options.rowMode;
  }
  let made = shape.carriers?.get(rowMode);
  if (!made) {
    made = Object.create(Object.freeze({ text: shape.text, name: shape.name, rowMode })) as object;
    (shape.carriers ??= new Map()).set(rowMode, made);
  }
  return made;
}
