/**
 * The migrated cluster a fresh embedded data folder starts from. `npm ci` (bin/pglite-template.mjs) runs
 * `crm migrate` on an empty folder and keeps the result, keyed by the PGlite version and the migration files
 * of every plugin the configuration enables, in order. A fresh folder whose plan has the same key starts as a
 * copy of it, instead of loading the bare cluster and running every migration and seed (most of a fresh
 * start: docs/performance.md, "Start-up time"). Any other plan (other plugins, an edited migration, the
 * sources run through tsx while the template came from dist/) has another key and migrates as before.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { KERNEL_VERSION, planPlugins } from '../kernel';
import type { Config } from './config';
import { templateCache } from './embedded';

/** The key of what a fresh database of this config would migrate, or undefined when it cannot be planned. */
export function migratedTemplateKey(config: Config): string | undefined {
  const cache = templateCache();
  if (!cache) return undefined;
  let plugins;
  try {
    plugins = planPlugins(config, KERNEL_VERSION);
  } catch {
    return undefined; // the boot reports it
  }
  const hash = createHash('sha256').update(`pglite ${cache.version}`);
  for (const plugin of plugins) {
    hash.update(`\0plugin ${plugin.name}`);
    const dir = path.join(plugin.dir, 'migrations');
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)))
      if (entry.isFile()) hash.update(`\0${entry.name}\0`).update(readFileSync(path.join(dir, entry.name)));
  }
  return hash.digest('hex').slice(0, 20);
}

/** Where the migrated cluster of `key` is cached. */
function templateDir(key: string): string | undefined {
  const cache = templateCache();
  return cache && path.join(cache.dir, `pglite-${cache.version}-migrated-${key}`);
}

/** Copies the migrated cluster for this config's plan into the empty folder `pgdata`; false when there is none. */
export function copyMigratedTemplate(config: Config, pgdata: string): boolean {
  const key = migratedTemplateKey(config);
  const from = key && templateDir(key);
  if (!from || !existsSync(path.join(from, 'PG_VERSION'))) return false;
  cpSync(from, pgdata, { recursive: true });
  return true;
}

/** Keeps `pgdata` (a cleanly closed, fully migrated cluster) as the template for this config's plan. */
export function saveMigratedTemplate(config: Config, pgdata: string): string | undefined {
  const key = migratedTemplateKey(config);
  const to = key && templateDir(key);
  if (!to) return undefined;
  const tmp = `${to}.tmp-${process.pid}`;
  cpSync(pgdata, tmp, { recursive: true });
  rmSync(to, { recursive: true, force: true });
  renameSync(tmp, to);
  return to;
}
