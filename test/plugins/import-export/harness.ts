/** Boots import-export behind the REST bindings, runs its CLI commands in-process, and writes fixture files. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliCommands, cliContext, type CliCommand } from '../../../host';
import { bootEntityHttp, type EntityHttp } from '../../support/entity-http';

export interface Harness extends EntityHttp {
  /** Runs `crm <name> args…` with options as commander would pass them; its printed answer. */
  cli(name: string, args: string[], options?: Record<string, unknown>): Promise<string>;
  /** A file in the test's temporary folder. */
  file(name: string, content?: string | Buffer): string;
}

export async function bootImportExport(extra: { plugins?: string[]; pluginDirs?: string[] } = {}): Promise<Harness> {
  const crm = await bootEntityHttp({
    plugins: ['import-export', 'custom-data', ...(extra.plugins ?? [])],
    pluginDirs: extra.pluginDirs,
  });
  const commands = (await crm.t.kernel.hooks.run(cliCommands)) as CliCommand[];
  const byName = new Map(commands.map((c) => [c.name, c]));
  const dir = mkdtempSync(join(tmpdir(), 'crm-import-'));
  return {
    ...crm,
    async cli(name, args, options = {}) {
      return String((await byName.get(name)!.run(args, { quiet: true, ...options }, cliContext(crm.t.kernel))) ?? '');
    },
    file(name, content) {
      const path = join(dir, name);
      if (content !== undefined) writeFileSync(path, content);
      return path;
    },
  };
}
