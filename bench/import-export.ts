/**
 * Import and export at scale (issue 18): `crm import` of N contacts with an email and a phone each into a
 * scratch database (its own PostgreSQL schema or PGlite folder, so the seeded one stays as it is), then
 * `crm export` of them as CSV. Each runs as its own process: rate from the import's summary (boot left
 * out), export rate from wall time minus an empty export's, peak RSS from /proc, RSS above an empty export's.
 * Then the same contacts are exported over HTTP as CSV and JSON (export-http.ts).
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import knexFactory from 'knex';
import { peakRssMb } from './servers';
import { benchHttpExport, httpExportRows, type HttpExportFigures } from './export-http';

export interface ImportExportFigures {
  contacts: number;
  importRate: number;
  importPeakRssMb: number;
  exportRows: number;
  exportRate: number;
  exportPeakRssMb: number;
  exportIdleRssMb: number;
  exportCsvMb: number;
  /** The same rows exported over HTTP (APIv4 get, limit 0) as CSV and JSON. */
  http?: HttpExportFigures[];
}

interface Run {
  stdout: string;
  seconds: number;
  peakMb: number;
}

/** Runs `crm …` and samples its peak RSS until it exits. */
async function crm(root: string, env: Record<string, string>, args: string[]): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'bin/crm.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let peakMb = 0;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, peakRssMb(child.pid!) || 0)), 50);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(timer);
  if (code !== 0) throw new Error(`crm ${args.join(' ')} exited with ${code}`);
  return { stdout, seconds: (Date.now() - started) / 1000, peakMb };
}

async function writeCsv(file: string, contacts: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('first_name,last_name,email,phone\n');
  for (let i = 0; i < contacts; i++)
    if (!out.write(`Imp${i},Bench${i % 97},imp${i}@example.org,+44 20 7946 ${String(i % 10000).padStart(4, '0')}\n`))
      await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

export async function benchImportExport(options: {
  root: string;
  engine: 'postgresql' | 'pglite';
  contacts: number;
  log: (m: string) => void;
}): Promise<ImportExportFigures> {
  const { root, contacts, log } = options;
  const work = path.join(root, 'var', 'bench', 'import-export');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // The shipped plugins only (compiled from dist/, as a deployment runs them): not the bench probe.
  const configFile = path.join(work, 'crm.config.json');
  writeFileSync(configFile, JSON.stringify({ pluginConfig: { users: { firstRun: false } } }));
  let env: Record<string, string>;
  if (options.engine === 'postgresql') {
    const schema = `bench_import_${contacts}`;
    const db = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL });
    await db.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.destroy();
    env = { DATABASE_URL: process.env.DATABASE_URL!, CRM_DB_SCHEMA: schema, CRM_CONFIG: configFile };
  } else env = { CRM_DATA_DIR: path.join(work, 'data'), CRM_CONFIG: configFile };
  execFileSync(process.execPath, [path.join(root, 'bin/crm.mjs'), 'migrate'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  const csv = path.join(work, 'contacts.csv');
  await writeCsv(csv, contacts);
  log(`bench: crm import of ${contacts} contacts (email + phone)`);
  const imported = await crm(root, env, ['import', csv, '--quiet']);
  const summary = JSON.parse(imported.stdout) as { created: number; seconds: number };
  if (summary.created !== contacts) throw new Error(`import created ${summary.created} of ${contacts}`);
  const select = 'id,first_name,last_name,email_primary.email,phone_primary.phone';
  const idle = await crm(root, env, [
    'export',
    '--select',
    select,
    '--where',
    '[["id","<",0]]',
    '-o',
    path.join(work, 'none.csv'),
  ]);
  log(`bench: crm export of ${contacts} contacts as CSV`);
  const out = path.join(work, 'export.csv');
  const exported = await crm(root, env, ['export', '--select', select, '-o', out]);
  const { rows, seconds } = JSON.parse(exported.stdout) as { rows: number; seconds: number };
  const http = await benchHttpExport({ root, env, select: select.split(','), log });
  return {
    http,
    contacts,
    importRate: Math.round(summary.created / summary.seconds),
    importPeakRssMb: imported.peakMb,
    exportRows: rows,
    exportRate: Math.round(rows / Math.max(0.001, seconds)),
    exportPeakRssMb: exported.peakMb,
    exportIdleRssMb: idle.peakMb,
    exportCsvMb: Math.round(statSync(out).size / 1024 / 1024),
  };
}

export function importExportTable(figures: ImportExportFigures): string {
  return [
    '| scenario | rate | peak RSS | RSS above idle |',
    '|---|---|---|---|',
    `| crm import ${figures.contacts} contacts + email + phone | ${figures.importRate} contacts/s | ` +
      `${figures.importPeakRssMb} MB | |`,
    `| crm export ${figures.exportRows} contacts as CSV (${figures.exportCsvMb} MB) | ${figures.exportRate} rows/s | ` +
      `${figures.exportPeakRssMb} MB | ${figures.exportPeakRssMb - figures.exportIdleRssMb} MB |`,
    ...httpExportRows(figures.http ?? []),
  ].join('\n');
}
