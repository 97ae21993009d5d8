#!/usr/bin/env node
// Start-up time: from spawning `node bin/crm.mjs serve` (what `npm start` runs, without npm's own ~0.2 s)
// to the first 200 from /healthz, median of N runs, for an existing embedded database, a fresh data
// folder, and PostgreSQL (DATABASE_URL or --pg <url>, a schema of its own). docs/performance.md has figures.
// --npm spawns `npm start` itself (npm's own start-up included, as a deployer types it).
//   node bench/start.mjs [--runs 5] [--pg postgres://postgres@127.0.0.1:5432/test] [--only existing,fresh,pg] [--npm]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('runs', '5'));
const pgUrl = arg('pg', process.env.DATABASE_URL || '');
const only = arg('only', 'existing,fresh,pg').split(',');
const viaNpm = process.argv.includes('--npm');

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** One start: milliseconds until /healthz answers 200; the server is stopped again. */
async function startOnce(env) {
  const port = await freePort();
  const started = performance.now();
  const [command, args] = viaNpm
    ? ['npm', ['start', '--silent']]
    : [process.execPath, [path.join(root, 'bin/crm.mjs'), 'serve']];
  const child = spawn(command, args, {
    cwd: root,
    detached: viaNpm, // npm's children are stopped as a process group
    env: { ...process.env, CRM_CONFIG: '', LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited (${child.exitCode}): ${err}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.status === 200) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  if (viaNpm) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
  await exited;
  return ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function scenario(name, envFor, cleanup = () => undefined) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const env = envFor(i);
    try {
      times.push(await startOnce(env));
    } finally {
      cleanup(env);
    }
  }
  const secs = (ms) => (ms / 1000).toFixed(2);
  const spread = `min ${secs(Math.min(...times))} s   max ${secs(Math.max(...times))} s`;
  console.log(`${name.padEnd(22)} median ${secs(median(times))} s   ${spread}   (${times.map(secs).join(', ')})`);
}

console.log(
  `node ${process.version}, ${runs} runs each, ${viaNpm ? 'npm start' : 'node bin/crm.mjs serve'} until GET /healthz answers 200`,
);
if (only.includes('existing')) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-start-'));
  await startOnce({ CRM_DATA_DIR: dataDir, DATABASE_URL: '' }); // create and migrate it first
  await scenario('existing embedded', () => ({ CRM_DATA_DIR: dataDir, DATABASE_URL: '' }));
  rmSync(dataDir, { recursive: true, force: true });
}
if (only.includes('fresh'))
  await scenario(
    'fresh data folder',
    () => ({ CRM_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-start-')), DATABASE_URL: '' }),
    (env) => rmSync(env.CRM_DATA_DIR, { recursive: true, force: true }),
  );
if (only.includes('pg') && pgUrl) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-start-'));
  const env = { CRM_DATA_DIR: dataDir, DATABASE_URL: pgUrl, CRM_DB_SCHEMA: `bench_start_${process.pid}` };
  await startOnce(env); // migrate the schema first
  await scenario('PostgreSQL', () => env);
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`drop schema if exists "${env.CRM_DB_SCHEMA}" cascade`);
  await c.end();
  rmSync(dataDir, { recursive: true, force: true });
}
