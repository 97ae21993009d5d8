import type { Command } from 'commander';
import type { CliCommand } from '../host';

/**
 * What `cli/front.mjs` answers `--help`, `--version` and argument errors from without loading TypeScript or
 * opening a database: the built-in commands as declared above, and every installed plugin's (`npm run docs`).
 */
export function commandsFile(program: Command, contributed: Array<{ plugin: string; item: CliCommand }>): string {
  const describe = (command: Command, prefix = ''): object[] => {
    const name = `${prefix}${command.name()}`;
    const subs = command.commands.flatMap((sub) => describe(sub, `${name} `));
    return [
      {
        name,
        description: command.description(),
        arguments: command.registeredArguments.map((a) => ({
          name: a.name() + (a.variadic ? '...' : ''),
          description: a.description,
          required: a.required,
          ...(a.defaultValue !== undefined ? { default: a.defaultValue } : {}),
        })),
        options: command.options.map((o) => ({
          flags: o.flags,
          description: o.description,
          ...(o.defaultValue !== undefined && typeof o.defaultValue !== 'boolean' ? { default: o.defaultValue } : {}),
        })),
        ...(subs.length ? { group: true } : {}),
      },
      ...subs,
    ];
  };
  const plugins = contributed
    .map(({ plugin, item }) => ({
      name: item.name,
      plugin,
      description: item.description,
      arguments: (item.arguments ?? []).map((a) => ({ ...a, required: a.required !== false })),
      options: item.options ?? [],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const builtins = program.commands.flatMap((c) => describe(c));
  return JSON.stringify({ generatedBy: 'npm run docs', builtins, plugins }, null, 2) + '\n';
}
