/** Runs the `crm` command as a deployer does: a real process, with no database URL or config file of the caller's. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CRM_BIN = path.join(ROOT, 'bin/crm.mjs');

// The CLI tests run what `npm start` runs: the compiled tree when there is one (npm ci builds dist/). When the
// sources changed since, it is rebuilt here first, so the tests run the code under test and bin/crm.mjs has no
// stale-build notice to add to the output they check. Without a build the sources run through tsx, as before.
const script = (name: string) => pathToFileURL(path.join(ROOT, 'bin', name)).href;
if ((await import(script('dist.mjs'))).staleness()?.missing === false)
  await (await import(script('build.mjs'))).build();

export const runCrm = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CRM_BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', CRM_CONFIG: '', ...env },
    encoding: 'utf8',
    timeout: 60000,
  });
