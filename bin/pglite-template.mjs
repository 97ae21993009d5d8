#!/usr/bin/env node
// Builds the initialised PGlite cluster a fresh data folder starts from (instead of running initdb, ~4-6 s
// on a small machine): npm's `prepare` lifecycle runs this after `npm ci`. The template is cached under
// node_modules/.cache per PGlite version; host/db.ts uses it when present and runs initdb otherwise.
// Then, with an up-to-date compiled tree (bin/build.mjs runs first), the migrated cluster: `crm migrate` on
// an empty folder, kept for the configuration's plan (host/template.ts), so a fresh folder skips migrating.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the template for the installed PGlite lives (host/db.ts computes the same path). */
export function templatePath() {
  const pkg = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8'));
  return path.join(root, 'node_modules/.cache/crm-service', `pglite-${version}-cluster.tar`);
}

async function build() {
  const file = templatePath();
  if (existsSync(file)) return console.log(`PGlite cluster template present: ${path.relative(root, file)}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const started = Date.now();
  const pg = new PGlite();
  await pg.waitReady;
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
  renameSync(tmp, file);
  console.log(`PGlite cluster template built in ${Date.now() - started} ms: ${path.relative(root, file)}`);
}

/** The migrated cluster for the configuration's plan (embedded database only), from the compiled tree. */
async function buildMigrated() {
  const { distDir, staleness } = await import('./dist.mjs');
  const why = staleness();
  if (why) return console.log(`Migrated PGlite template not built: ${why.reason}`);
  const dist = (file) => import(pathToFileURL(path.join(distDir(), file)).href);
  const { loadConfig } = await dist('host/config.js');
  const config = loadConfig({});
  if (config.database.url) return console.log('Migrated PGlite template not built: the configuration uses PostgreSQL');
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'crm-template-'));
  try {
    const env = { ...process.env, CRM_RUNTIME: 'dist', CRM_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' };
    const run = spawnSync(process.execPath, [path.join(root, 'bin/crm.mjs'), 'migrate'], { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error((run.stderr || run.stdout).trim());
    const { saveMigratedTemplate } = await dist('host/template.js');
    const saved = saveMigratedTemplate(config, path.join(dataDir, 'pgdata'));
    console.log(`Migrated PGlite template built in ${Date.now() - started} ms: ${path.relative(root, saved)}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Never fail an install over it: without a template a fresh data folder runs initdb, as before.
  await build().catch((err) => console.warn(`PGlite cluster template not built: ${err?.message ?? err}`));
  await buildMigrated().catch((err) => console.warn(`Migrated PGlite template not built: ${err?.message ?? err}`));
}
