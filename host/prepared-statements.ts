import type { Knex } from 'knex';

/** Distinct statement texts named per process; beyond this, queries run unnamed (no server memory growth). */
export const MAX_PREPARED = 2000;

/** What a statement text becomes on its way to `pg`, worked out once per text. */
interface Shape {
  /** The text with knex's `?` placeholders as `$1…` (knex's own `positionBindings`). */
  text: string;
  /** The prepared statement's name, when the text is one of the first MAX_PREPARED. */
  name?: string;
}

interface QueryObject {
  sql: string;
  bindings?: unknown[];
  options?: Record<string, unknown>;
  response?: unknown;
}

interface PgConnection {
  __knexUid?: string;
  __knexTxId?: string;
  query(config: object, callback: (err: Error | null, response: unknown) => void): void;
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
    const config: Record<string, unknown> = { text: obj.sql, values: obj.bindings ?? [] };
    if (obj.options) Object.assign(config, obj.options);
    if (shape.name && !obj.options?.name) config.name = shape.name;
    return new Promise((resolve, reject) => {
      connection.query(config, (err, response) => {
        if (!err) {
          obj.response = response;
          resolve(obj);
          return;
        }
        // As knex words it (its formatter inlines only `?` left in a positioned text: none for ours).
        err.message = `${obj.sql} - ${err.message}`;
        this.emit('query-error', err, Object.assign({ __knexUid, __knexTxId }, obj));
        reject(err);
      });
    });
  };
  return db;
}
