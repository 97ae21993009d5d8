/** Runs the `crm` command as a deployer does: a real process, with no database URL or config file of the caller's. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CRM_BIN = path.join(ROOT, 'bin/crm.mjs');

export const runCrm = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CRM_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '', ...env },
    encoding: 'utf8',
    timeout: 60000,
  });
