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

/** Applies pending migrations of the given plugins. Returns the names applied. */
export async function migrate(db: Knex, plugins: PluginMigrations[]): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({
    migrationSource: migrationSource(plugins),
    tableName: 'crm_migrations',
    // Names are `<plugin>/<file>`; a disabled plugin's applied migrations must not fail the start.
    disableMigrationsListValidation: true,
  })) as [number, string[]];
  return applied;
}

/** Migrations of the given plugins not yet applied (for `/readyz`). */
export async function pendingMigrations(db: Knex, plugins: PluginMigrations[]): Promise<string[]> {
  const [, pending] = (await db.migrate.list({
    migrationSource: migrationSource(plugins),
    tableName: 'crm_migrations',
  })) as [unknown, Array<{ name: string }>];
  return pending.map((m) => m.name);
}
