#!/usr/bin/env node
// Builds the initialised PGlite cluster a fresh data folder starts from (instead of running initdb, ~4-6 s
// on a small machine): npm's `prepare` lifecycle runs this after `npm ci`. The template is cached under
// node_modules/.cache per PGlite version; host/db.ts uses it when present and runs initdb otherwise.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Never fail an install over it: without a template a fresh data folder runs initdb, as before.
  await build().catch((err) => console.warn(`PGlite cluster template not built: ${err?.message ?? err}`));
}
