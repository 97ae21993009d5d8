/** knex's migrator over every enabled plugin's `migrations/` folder (names `<plugin>/<file>`). */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import type { PluginMigrations } from '../kernel';

/** A knex migration source over every enabled plugin's `migrations/` folder, in plugin order. */
function migrationSource(plugins: PluginMigrations[]): Knex.MigrationSource<{ name: string; file: string }> {
  return {
    async getMigrations() {
      return plugins.flatMap(({ plugin, dir }) =>
        existsSync(dir)
          ? readdirSync(dir)
              .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
              .sort()
              .map((f) => ({ name: `${plugin}/${f.replace(/\.(ts|js|mjs)$/, '')}`, file: path.join(dir, f) }))
          : [],
      );
    },
    getMigrationName: (m) => m.name,
    getMigration: async (m) => (await import(pathToFileURL(m.file).href)) as Knex.Migration,
  };
}

const TABLE = 'crm_migrations';

/**
 * Whether every migration file of the given plugins is recorded as applied: one query, where knex's
 * `migrate.latest` sends ~10 (its tables' existence, the lock, the list) even when nothing is pending,
 * ~0.1–0.3 s of every start on the embedded database. False when the table does not exist yet (a fresh
 * database); then knex's migrator runs as before, and it alone ever writes.
 */
async function allApplied(db: Knex, plugins: PluginMigrations[]): Promise<boolean> {
  const files = await migrationSource(plugins).getMigrations([]);
  let rows: Array<{ name: string }>;
  try {
    rows = await db(TABLE).select('name');
  } catch {
    return false;
  }
  const applied = new Set(rows.map((r) => r.name));
  return files.every((m) => applied.has(m.name));
}

/** Applies pending migrations of the given plugins. Returns the names applied. */
export async function migrate(db: Knex, plugins: PluginMigrations[]): Promise<string[]> {
  if (await allApplied(db, plugins)) return [];
  const [, applied] = (await db.migrate.latest({
    migrationSource: migrationSource(plugins),
    tableName: TABLE,
    // Names are `<plugin>/<file>`; a disabled plugin's applied migrations must not fail the start.
    disableMigrationsListValidation: true,
  })) as [number, string[]];
  return applied;
}

/** Migrations of the given plugins not yet applied (for `/readyz`). */
export async function pendingMigrations(db: Knex, plugins: PluginMigrations[]): Promise<string[]> {
  if (await allApplied(db, plugins)) return [];
  const [, pending] = (await db.migrate.list({
    migrationSource: migrationSource(plugins),
    tableName: TABLE,
  })) as [unknown, Array<{ name: string }>];
  return pending.map((m) => m.name);
}
