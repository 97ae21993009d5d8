/**
 * Export over HTTP (issue 18): a `crm serve` on the import bench's scratch database answers one APIv4
 * `Contact/get` with `limit: 0` as CSV (`format=csv`) and one as JSON, streamed page by page, then the CSV
 * again sorted by `sort_name` beside a bare pg walk of the same sorted rows (PostgreSQL). Rate: rows
 * over the time from the request to the body's last byte. Memory: the server's VmRSS once warmed up
 * (idle), then its peak (VmHWM, reset through /proc/<pid>/clear_refs before each export) during the export.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, peakRssMb, start, waitHealthy } from './servers';

export interface HttpExportFigures {
  format: 'csv' | 'json';
  /** Sorted by this field (a keyset walk by the field's values, then id), or by id when absent. */
  sortedBy?: string;
  /** PostgreSQL only: a bare pg client walking the same sorted rows as CSV lines, rows per second. */
  baselineRate?: number;
  rows: number;
  mb: number;
  rate: number;
  idleRssMb: number;
  peakRssMb: number;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** One get, its body read as it comes: rows (CSV lines less the header, or the JSON `count`), bytes, seconds. */
async function exportOnce(
  url: string,
  key: string,
  format: 'csv' | 'json',
  select: string[],
  limit: number,
  sortedBy?: string,
) {
  const started = process.hrtime.bigint();
  const orderBy = sortedBy ? { [sortedBy]: 'ASC' } : undefined;
  const res = await fetch(`${url}/crm/ajax/api4/Contact/get`, {
    method: 'POST',
    headers: { 'X-Crm-Auth': `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ params: JSON.stringify({ select, limit, orderBy }), format }),
  });
  if (res.status !== 200) throw new Error(`export as ${format}: HTTP ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  let tail = '';
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) lines++;
    if (format === 'json') tail = (tail + Buffer.from(value.subarray(-300)).toString()).slice(-300);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rows = format === 'csv' ? lines - 1 : Number(/"count":(\d+)/.exec(tail)?.[1]);
  return { rows, bytes, seconds };
}

export async function benchHttpExport(options: {
  root: string;
  env: Record<string, string>;
  select: string[];
  log: (m: string) => void;
}): Promise<HttpExportFigures[]> {
  const { root, env, select, log } = options;
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(root, 'bin/crm.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    }).toString();
  try {
    cli('user', 'add', 'exporter', '--roles', 'administrator', '--no-password');
  } catch {
    // Already there: the bench is run again on the same database.
  }
  const key = cli('key', 'create', '--user', 'exporter', '--label', 'bench').trim().split('\n').pop()!.trim();
  const server = start(root, 'crm', ['bin/crm.mjs', 'serve'], env, await freePort());
  const pid = server.child.pid!;
  try {
    await waitHealthy(server.url, server.child, 'crm serve');
    const figures: HttpExportFigures[] = [];
    for (const format of ['csv', 'json'] as const) {
      // Warm: the same read, a page's worth, twice.
      for (let i = 0; i < 2; i++) await exportOnce(server.url, key, format, select, 5000);
      const idle = rssMb(pid);
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      log(`bench: HTTP export of every contact as ${format.toUpperCase()} (limit 0)`);
      const run = await exportOnce(server.url, key, format, select, 0);
      figures.push({
        format,
        rows: run.rows,
        mb: Math.round(run.bytes / 1024 / 1024),
        rate: Math.round(run.rows / run.seconds),
        idleRssMb: idle,
        peakRssMb: peakRssMb(pid),
      });
    }
    // Sorted by a field: the service walks (sort_name, id) pages; the baseline walks the same pages bare.
    for (let i = 0; i < 2; i++) await exportOnce(server.url, key, 'csv', select, 5000, 'sort_name');
    const idle = rssMb(pid);
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    log('bench: HTTP export of every contact as CSV sorted by sort_name (limit 0)');
    const sorted = await exportOnce(server.url, key, 'csv', select, 0, 'sort_name');
    figures.push({
      format: 'csv',
      sortedBy: 'sort_name',
      rows: sorted.rows,
      mb: Math.round(sorted.bytes / 1024 / 1024),
      rate: Math.round(sorted.rows / sorted.seconds),
      idleRssMb: idle,
      peakRssMb: peakRssMb(pid),
      baselineRate: env.DATABASE_URL ? await bareSortedCsv(env.DATABASE_URL, env.CRM_DB_SCHEMA) : undefined,
    });
    return figures;
  } finally {
    server.child.kill();
  }
}

const csvCell = (v: unknown) =>
  v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v);

/**
 * The bare baseline of the sorted export: one pg client walking contacts with their primary email and phone
 * by (sort_name, id), 5,000 rows a page, each row made a CSV line; rows per second. (Its walk skips contacts
 * without a sort_name; the bench's imported contacts all have one.)
 */
async function bareSortedCsv(url: string, schema?: string): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (schema) await client.query(`set search_path to "${schema.replace(/"/g, '""')}"`);
    const started = process.hrtime.bigint();
    let rows = 0;
    let bytes = 0;
    let after: unknown[] = [];
    for (;;) {
      const page = await client.query({
        text:
          'select c.id, c.first_name, c.last_name, e.email, p.phone, c.sort_name from crm_contact c ' +
          'left join crm_email e on e.contact_id = c.id and e.is_primary ' +
          'left join crm_phone p on p.contact_id = c.id and p.is_primary where not c.is_deleted ' +
          (after.length ? 'and (c.sort_name, c.id) > ($1, $2) ' : '') +
          'order by c.sort_name, c.id limit 5000',
        values: after,
        rowMode: 'array',
      });
      for (const row of page.rows as unknown[][]) bytes += (row.slice(0, 5).map(csvCell).join(',') + '\n').length;
      rows += page.rows.length;
      if (page.rows.length < 5000) break;
      const last = page.rows[page.rows.length - 1] as unknown[];
      after = [last[5], last[0]];
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return bytes > 0 ? Math.round(rows / seconds) : 0;
  } finally {
    await client.end();
  }
}

export function httpExportRows(figures: HttpExportFigures[]): string[] {
  return figures.map(
    (f) =>
      `| HTTP Contact/get limit 0 as ${f.format.toUpperCase()}${f.sortedBy ? ` sorted by ${f.sortedBy}` : ''}, ` +
      `${f.rows} rows (${f.mb} MB) | ${f.rate} rows/s` +
      (f.baselineRate
        ? ` (bare pg walk: ${f.baselineRate} rows/s, ${Math.round((100 * f.rate) / f.baselineRate)}%)`
        : '') +
      ` | ${f.peakRssMb} MB | ${f.peakRssMb - f.idleRssMb} MB |`,
  );
}
