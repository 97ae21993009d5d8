/**
 * PostgreSQL alone on a page's statement (issue 18: the default page's rate beside pgbench's for the same
 * query): `pgbench` with the statement prepared, the bench's connections, for the bench's seconds, against the
 * bench database. Absent (undefined) on the embedded engine, or where `pgbench` is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A bound value written into the statement (pgbench scripts take no `$n` parameters): numbers, booleans, text. */
function literal(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  throw new Error(`pgbench: cannot write ${JSON.stringify(value)} into a statement`);
}

/** The statement with each `$n` replaced by its value (from the highest n down, so `$1` never eats `$10`). */
export function inlined(sql: string, params: unknown[]): string {
  let out = sql;
  for (let n = params.length; n >= 1; n--) out = out.replaceAll(`$${n}`, literal(params[n - 1]));
  return out;
}

/** Transactions per second from pgbench's report (`tps = 1234.5 (without initial connection time)`). */
export function tpsOf(report: string): number | undefined {
  const match = /^tps = ([0-9.]+)/m.exec(report);
  return match ? Number(match[1]) : undefined;
}

/** pgbench's rate for one statement; undefined when pgbench is not installed (a failing run throws). */
export async function pgbenchRate(opts: {
  url: string;
  schema?: string;
  sql: string;
  params: unknown[];
  clients: number;
  seconds: number;
}): Promise<number | undefined> {
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-pgbench-'));
  try {
    const script = path.join(dir, 'page.sql');
    writeFileSync(script, `${inlined(opts.sql, opts.params).replace(/\s+/g, ' ').trim()};\n`);
    const seconds = Math.max(1, Math.round(opts.seconds));
    const threads = Math.min(2, opts.clients);
    const argv = ['-n', '-M', 'prepared', '-c', String(opts.clients), '-j', String(threads), '-T', String(seconds)];
    const env = {
      ...process.env,
      ...libpqEnv(opts.url),
      PGOPTIONS: opts.schema ? `-c search_path=${opts.schema}` : '',
    };
    let stdout: string;
    try {
      ({ stdout } = await run('pgbench', [...argv, '-f', script], { env, timeout: (seconds + 30) * 1000 }));
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ENOENT') return undefined; // not installed: reported as absent
      const said = String((err as { stderr?: unknown }).stderr ?? (err as Error).message).trim();
      // Its first error line says why (those after it are the run being aborted).
      const why = said.split('\n').find((line) => /error/i.test(line)) ?? said.split('\n').pop();
      throw new Error(`pgbench failed: ${why}`, { cause: err });
    }
    const tps = tpsOf(stdout);
    if (tps === undefined) throw new Error(`pgbench printed no rate: ${stdout.slice(-200)}`);
    return tps;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A connection URL as libpq's environment variables: given on the command line, a password would show in the
 * machine's process list.
 */
function libpqEnv(url: string): Record<string, string> {
  const parsed = new URL(url);
  const env: Record<string, string> = {};
  if (parsed.hostname) env.PGHOST = decodeURIComponent(parsed.hostname);
  if (parsed.port) env.PGPORT = parsed.port;
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  if (parsed.pathname.length > 1) env.PGDATABASE = decodeURIComponent(parsed.pathname.slice(1));
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}
