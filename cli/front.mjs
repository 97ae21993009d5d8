// The CLI's front: plain JavaScript, so `--help`, `--version` and argument errors answer without loading
// TypeScript or opening a database. It knows the commands from cli/commands.json (built-in commands and
// every installed plugin's, as declared in their manifests and written by `npm run docs`) and says whether
// the TypeScript CLI must run the command.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';

const read = (rel) => JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8'));

/** Builds the command tree with no-op actions; `selected` records which command the arguments name. */
function buildProgram(spec, version) {
  const program = new Command('crm')
    .description('Contact-management service')
    .version(version, '-V, --version', 'print the version')
    .exitOverride();
  const result = { selected: undefined };
  const find = (parent, word) => parent.commands.find((c) => c.name() === word);
  const add = (cmd) => {
    const words = cmd.name.split(' ');
    let parent = program;
    for (const w of words.slice(0, -1)) parent = find(parent, w) ?? parent.command(w).description(`${w} commands`);
    const sub = find(parent, words[words.length - 1]) ?? parent.command(words[words.length - 1]);
    sub.description(cmd.description);
    sub.exitOverride();
    if (cmd.group) return;
    for (const a of cmd.arguments ?? []) {
      const name = a.required === false ? `[${a.name}]` : `<${a.name}>`;
      if (a.default !== undefined) sub.argument(name, a.description ?? '', a.default);
      else sub.argument(name, a.description ?? '');
    }
    for (const o of cmd.options ?? []) sub.option(o.flags, o.description ?? '', o.default);
    sub.action(() => {
      result.selected = cmd.name;
    });
  };
  for (const c of spec.builtins) add(c);
  for (const c of spec.plugins) add(c);
  program.option('-c, --config <file>', 'config file (default: crm.config.json or $CRM_CONFIG)');
  return { program, result };
}

/**
 * Answers what needs no runtime. When the TypeScript CLI must run the command, returns its name (`serve`,
 * `key create`), or true when only the full CLI can tell; otherwise the answer is written, the exit code
 * set, and false returned.
 */
export function front(argv = process.argv) {
  const { version } = read('../package.json');
  let spec;
  try {
    spec = read('./commands.json');
  } catch {
    return true; // no generated list (a bare checkout): the full CLI answers everything
  }
  const { program, result } = buildProgram(spec, version);
  let errors = '';
  program.configureOutput({ writeErr: (s) => (errors += s) });
  try {
    program.parse(argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    // A plugin outside plugins/ (pluginPaths) is not in the list: the full CLI knows it.
    if (err.code === 'commander.unknownCommand' && externalPlugins(argv)) return true;
    process.stderr.write(errors);
    process.exitCode = err.exitCode;
    return false;
  }
  process.stderr.write(errors);
  return result.selected ?? false;
}

/**
 * The configuration file the command names (`-c`, `--config=`, `CRM_CONFIG`, else ./crm.config.json), read cheaply
 * and not validated: for decisions before the CLI loads; undefined when it is missing or not JSON.
 */
export function rawConfig(argv, env = process.env) {
  const i = argv.findIndex((a) => a === '-c' || a === '--config');
  const inline = argv.find((a) => a.startsWith('--config='))?.slice('--config='.length);
  const file = (i >= 0 ? argv[i + 1] : inline) || env.CRM_CONFIG || 'crm.config.json';
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether the configuration names plugin folders besides plugins/. */
export function externalPlugins(argv) {
  return (rawConfig(argv)?.pluginPaths ?? []).length > 0;
}
