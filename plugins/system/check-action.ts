/**
 * System.check: the service's own status checks, in the reference's shape (name, title, message, severity):
 * the database answers, every enabled plugin's migrations are applied, the service runs on PostgreSQL or on
 * the embedded database (a notice: one process only).
 */
import path from 'node:path';
import type { ActionContext, ActionRegistrar, PluginManifest } from '../../kernel';
import { engineOf, pendingMigrations, ping } from '../../host';

type Plugins = ReadonlyArray<{ readonly name: string; readonly dir: string; readonly manifest: PluginManifest }>;
const SEVERITY = { info: 1, notice: 2, warning: 3, error: 4, critical: 5 } as const;
type Severity = keyof typeof SEVERITY;

interface Check {
  name: string;
  title: string;
  message: string;
  severity: Severity;
}

async function runChecks(ctx: ActionContext, plugins: Plugins): Promise<Check[]> {
  // The call's own handle: inside a transaction (a chain, force_rollback) the embedded database's one
  // connection is that transaction's, and a query on the root handle would wait for it forever.
  const db = ctx.db as Parameters<typeof ping>[0];
  try {
    await ping(db);
  } catch (err) {
    return [
      {
        name: 'checkDatabase',
        title: 'Database',
        message: `The database does not answer: ${(err as Error).message}`,
        severity: 'critical',
      },
    ];
  }
  const checks: Check[] = [
    { name: 'checkDatabase', title: 'Database', message: 'The database answers.', severity: 'info' },
  ];
  const pending = await pendingMigrations(
    db,
    plugins.map((plugin) => ({ plugin: plugin.name, dir: path.join(plugin.dir, 'migrations') })),
  );
  checks.push(
    pending.length
      ? {
          name: 'checkMigrations',
          title: 'Migrations',
          message: `Pending migrations: ${pending.join(', ')}`,
          severity: 'error',
        }
      : { name: 'checkMigrations', title: 'Migrations', message: 'Every migration is applied.', severity: 'info' },
  );
  checks.push(
    engineOf(db) === 'postgresql'
      ? {
          name: 'checkDatabaseEngine',
          title: 'Database engine',
          message: 'PostgreSQL: several instances may share it.',
          severity: 'info',
        }
      : {
          name: 'checkDatabaseEngine',
          title: 'Database engine',
          message: 'The embedded database serves one process: use PostgreSQL to run several instances.',
          severity: 'notice',
        },
  );
  return checks;
}

export function defineCheckActions(actions: ActionRegistrar, plugins: Plugins): void {
  actions.define({
    version: 3,
    entity: 'System',
    action: 'check',
    description: 'Status checks (database, migrations, engine) with their severity',
    params: { type: 'object' },
    permission: 'administer CRM',
    handler: async (_params, ctx) => {
      const checks = (await runChecks(ctx, plugins)).map((check) => ({
        ...check,
        severity_id: String(SEVERITY[check.severity]),
        is_visible: '1',
      }));
      return { is_error: 0, version: 3, count: checks.length, values: checks };
    },
  });
  actions.define({
    version: 4,
    entity: 'System',
    action: 'check',
    description: 'Status checks (database, migrations, engine) with their severity',
    params: { type: 'object', properties: { checkPermissions: { type: 'boolean' } } },
    permission: 'administer CRM',
    handler: async (_params, ctx) =>
      (await runChecks(ctx, plugins)).map((check) => ({
        ...check,
        severity_id: SEVERITY[check.severity],
        is_visible: true,
      })),
  });
}
