/** What the users plugin's CLI commands share: their services, argument parsing and table output. */
import { KernelError } from '../../kernel';
import { type CliCommand, type CliContext } from '../../host';
import type { IdentityStore } from './store';

export const deps = (cli: CliContext) => ({
  db: cli.db,
  identity: cli.services.identity as IdentityStore,
  keyring: cli.services.keyring,
  catalogue: cli.services.permissionCatalogue,
});

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function int(v: unknown, name: string): number | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  if (!/^\d{1,15}$/.test(s) || Number(s) <= 0)
    throw new KernelError('E_INVALID_PARAMS', `--${name} must be a positive integer`);
  return Number(s);
}

/** The role `user add --api-client` gives: what an API key needs past the `perm` guard and the common reads. */
export const API_CLIENT_ROLE = 'api-client';
export const API_CLIENT_PERMISSIONS = ['authenticate with api key', 'access CRM', 'access AJAX API'];

export const JSON_OPTION = { flags: '--json', description: 'Machine-readable output (a JSON array)' };

/** A list as a tab-separated table under a header, or as JSON. */
export function table(rows: Array<Record<string, unknown>>, columns: string[], json: unknown, empty: string): string {
  if (json) return JSON.stringify(rows, null, 2);
  if (!rows.length) return empty;
  const cell = (v: unknown) =>
    Array.isArray(v) ? v.join(',') || '-' : v === null || v === undefined ? '-' : String(v);
  return [columns.join('\t').toUpperCase(), ...rows.map((r) => columns.map((c) => cell(r[c])).join('\t'))].join('\n');
}

export function need(args: string[], i: number, name: string): string {
  const v = args[i];
  if (!v) throw new KernelError('E_INVALID_PARAMS', `Missing argument <${name}>`);
  return v;
}

/** `user enable` / `user disable`: a disabled user's credentials are all refused and its sessions end. */
export function activeCommand(active: boolean): CliCommand {
  const verb = active ? 'enable' : 'disable';
  return {
    name: `user ${verb}`,
    description: active
      ? 'Enable a disabled user again'
      : 'Disable a user: every credential of the user is refused and its sessions end',
    arguments: [{ name: 'username', description: 'Login name', required: true }],
    async run(args, _options, cli) {
      const { db, identity } = deps(cli);
      await identity.setActive(db, need(args, 0, 'username'), active);
      return `User ${args[0]} ${verb}d.`;
    },
  };
}

/**
 * Why a new key may be refused (to stderr-like lines in the output): no active user for the contact, or a user
 * without `authenticate with api key` (then only requests carrying the site key pass the default guards).
 */
