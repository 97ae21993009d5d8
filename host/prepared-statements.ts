import type { Knex } from 'knex';

/** Distinct statement texts named per process; beyond this, queries run unnamed (no server memory growth). */
export const MAX_PREPARED = 2000;

/**
 * Names every parameterised query by its text, so each PostgreSQL connection parses and plans a
 * query shape once and can reuse a generic plan: planning costs more than running the typical
 * 25-row page. Only queries with bindings are named (they already use the extended protocol, which
 * allows one statement per text). knex passes `options` through to `pg`; this sets them on the way.
 */
export function preparedStatements(db: Knex): Knex {
  const names = new Map<string, string>();
  const client = db.client as unknown as {
    _query(
      conn: unknown,
      obj: { sql: string; bindings?: unknown[]; options?: Record<string, unknown> },
    ): Promise<unknown>;
  };
  const run = client._query.bind(client);
  client._query = (conn, obj) => {
    if (obj.bindings?.length && !obj.options?.name) {
      let name = names.get(obj.sql);
      if (!name && names.size < MAX_PREPARED) names.set(obj.sql, (name = `crm_${names.size}`));
      if (name) obj.options = { ...obj.options, name };
    }
    return run(conn, obj);
  };
  return db;
}
