/**
 * The bare baseline: a few dozen lines of koa + pg (or PGlite) answering the pages the read scenarios ask
 * for (bench/sql.ts), framed in the same JSON envelope (APIv3 or APIv4). What the service costs is measured
 * against this.
 */
import Koa from 'koa';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { BASELINE_PAGES, type BenchIds } from './sql';
import { benchCustomColumns } from './seed-custom';

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

/** The seeded rows the pages filter on, looked up once (absent when that plugin's tables are not there). */
async function benchIds(): Promise<BenchIds> {
  const ids: BenchIds = {};
  try {
    const [group] = await query(`select id from crm_group where name = 'bench_group'`, []);
    if (group) ids.groupId = Number(group.id);
  } catch {
    // No group tables: the group scenario is not run either.
  }
  try {
    ids.custom = await benchCustomColumns(query);
  } catch {
    // No custom-data tables: the custom scenario is not run either.
  }
  return ids;
}
const ids = await benchIds();

const api3Values = (rows: Array<Record<string, unknown>>) => {
  const values: Record<string, Record<string, string>> = {};
  for (const row of rows) {
    const rec: Record<string, string> = {};
    for (const [k, v] of Object.entries(row)) rec[k] = v === null ? '' : String(v);
    values[rec.id] = rec;
  }
  return { is_error: 0, version: 3, count: rows.length, values };
};

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/healthz') {
    ctx.body = { status: 'ok' };
    return;
  }
  const page = BASELINE_PAGES[ctx.path];
  if (!page) {
    ctx.status = 404;
    return;
  }
  const rows = await query(typeof page.sql === 'string' ? page.sql : page.sql(ids), page.params(ids));
  ctx.body = page.shape === 'api3' ? api3Values(rows) : { version: 4, count: rows.length, values: rows };
});
app.listen(Number(process.env.PORT), '127.0.0.1');
