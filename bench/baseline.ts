/**
 * The bare baseline: a few dozen lines of koa + pg (or PGlite) answering the same 25-row contact page
 * with the same APIv3 JSON envelope as Contact.get. What the service costs is measured against this.
 */
import Koa from 'koa';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { CONTACT_PAGE_PARAMS, CONTACT_PAGE_SQL } from './sql';

type Query = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

async function connect(): Promise<Query> {
  if (process.env.DATABASE_URL) {
    const schema = process.env.CRM_DB_SCHEMA;
    const pool = new pg.Pool({
      connectionString: process.env.DATABASE_URL,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    return async (sql, params) => (await pool.query(sql, params)).rows;
  }
  // The same buffer cache as the service's embedded default (database.embeddedSharedBuffers).
  const db = new PGlite(process.env.BASELINE_PGDATA!, {
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
  });
  await db.waitReady;
  return async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows;
}

const query = await connect();
const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/healthz') {
    ctx.body = { status: 'ok' };
    return;
  }
  const rows = await query(CONTACT_PAGE_SQL, CONTACT_PAGE_PARAMS);
  const values: Record<string, Record<string, string>> = {};
  for (const row of rows) {
    const rec: Record<string, string> = {};
    for (const [k, v] of Object.entries(row)) rec[k] = v === null ? '' : String(v);
    values[rec.id] = rec;
  }
  ctx.body = { is_error: 0, version: 3, count: rows.length, values };
});
app.listen(Number(process.env.PORT), '127.0.0.1');
