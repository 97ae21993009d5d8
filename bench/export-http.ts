/**
 * Export over HTTP (issue 18): a `crm serve` on the import bench's scratch database answers one APIv4
 * `Contact/get` with `limit: 0` as CSV (`format=csv`) and one as JSON, streamed page by page. Rate: rows
 * over the time from the request to the body's last byte. Memory: the server's VmRSS once warmed up
 * (idle), then its peak (VmHWM, reset through /proc/<pid>/clear_refs before each export) during the export.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, peakRssMb, start, waitHealthy } from './servers';

export interface HttpExportFigures {
  format: 'csv' | 'json';
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
async function exportOnce(url: string, key: string, format: 'csv' | 'json', select: string[], limit: number) {
  const started = process.hrtime.bigint();
  const res = await fetch(`${url}/crm/ajax/api4/Contact/get`, {
    method: 'POST',
    headers: { 'X-Crm-Auth': `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ params: JSON.stringify({ select, limit }), format }),
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
    return figures;
  } finally {
    server.child.kill();
  }
}

export function httpExportRows(figures: HttpExportFigures[]): string[] {
  return figures.map(
    (f) =>
      `| HTTP Contact/get limit 0 as ${f.format.toUpperCase()}, ${f.rows} rows (${f.mb} MB) | ${f.rate} rows/s | ` +
      `${f.peakRssMb} MB | ${f.peakRssMb - f.idleRssMb} MB |`,
  );
}
