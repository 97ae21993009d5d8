/**
 * The `crm` command: a thin shell over kernel services. Built-in commands are below; plugins add
 * theirs through the `cli.commands` hook.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import knexFactory, { type Knex } from 'knex';
import { isKernelError, planPlugins, KERNEL_VERSION, type Kernel } from '../kernel';
import {
  cliCommands,
  cliContext,
  createDb,
  createKernel,
  createLogger,
  hostedKernel,
  loadConfig,
  shareEmbedded,
  startServer,
  type CliCommand,
  type Config,
} from '../host';
import { commandsFile } from './commands-file';
import { generateDocs, writeIfChanged } from './docs';
import { makeMigrations } from './migrations';
import { describePlugins, installedPlugins } from './plugins';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('crm')
  .description('Contact-management service')
  .version(pkg.version, '-V, --version', 'print the version')
  .option('-c, --config <file>', 'config file (default: crm.config.json or $CRM_CONFIG)');

const config = (overrides: Record<string, unknown> = {}): Config =>
  loadConfig({ file: program.opts().config, overrides });

/** A kernel with every plugin registered but nothing started (no I/O). */
async function registeredKernel(cfg: Config, db?: Knex): Promise<Kernel> {
  const kernel = hostedKernel(cfg, undefined, db);
  try {
    return await kernel.register();
  } catch (err) {
    await kernel.close();
    throw err;
  }
}

program
  .command('serve')
  .description('serve the API (what `npm start` runs)')
  .option('-p, --port <port>', 'port (default 8080 or $PORT)')
  .option('-H, --host <host>', 'address to listen on (default 127.0.0.1 or $HOST)')
  .action(async (opts: { port?: string; host?: string }) => {
    const server: Record<string, unknown> = {};
    if (opts.port !== undefined) server.port = Number(opts.port);
    if (opts.host !== undefined) server.host = opts.host;
    const cfg = config({ server });
    const kernel = await createKernel({ config: cfg });
    let running;
    try {
      // CLI commands run beside this server through a local socket on the embedded database.
      await shareEmbedded(kernel.db, cfg, kernel.log);
      running = await startServer(kernel);
    } catch (err) {
      await kernel.close();
      throw err;
    }
    const db = cfg.database.url ? 'PostgreSQL' : `embedded PGlite in ${cfg.dataDir}`;
    kernel.log.info(
      { url: running.url, plugins: kernel.plugins.length },
      `CRM service listening on ${running.url} (database: ${db})`,
    );
    if (!process.stdout.isTTY || cfg.log.pretty === false) process.stdout.write(`Listening on ${running.url}\n`);
    const shutdown = async (signal: string) => {
      kernel.log.info({ signal }, 'shutting down: finishing in-flight requests');
      await running.stop();
      process.exit(0);
    };
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
  });

program
  .command('migrate')
  .description('apply pending database migrations of the enabled plugins')
  .action(async () => {
    const kernel = await registeredKernel(config());
    try {
      const applied = await kernel.migrate();
      console.log(
        applied.length
          ? `Applied ${applied.length} migration(s):\n  ${applied.join('\n  ')}`
          : 'Database is up to date.',
      );
    } finally {
      await kernel.close();
    }
  });

program
  .command('migrate:make')
  .description('write a migration for every enabled plugin whose entity metadata differs from its schema snapshot')
  .argument('[name]', 'what the migration does, e.g. add_greeting', 'schema')
  .action(async (name: string) => {
    const written = await makeMigrations(planPlugins(config(), KERNEL_VERSION), name);
    console.log(
      written.length
        ? written.map((w) => `${w.plugin}: ${w.steps} step(s)\n  ${w.files.join('\n  ')}`).join('\n')
        : 'Metadata and migrations agree: nothing to write.',
    );
  });

program
  .command('plugins')
  .description('list every plugin found, enabled or not, with what it provides')
  .option('--json', 'machine-readable output')
  .action((opts: { json?: boolean }) => {
    const cfg = config();
    console.log(describePlugins(cfg, opts.json));
  });

program
  .command('config')
  .description('configuration tools')
  .command('check')
  .description('validate the configuration and the enabled plugins, without starting')
  .action(() => {
    const cfg = config();
    const planned = planPlugins(cfg, KERNEL_VERSION);
    console.log(
      `Configuration OK. ${planned.length} plugin(s) enabled, in load order: ${planned.map((p) => p.name).join(', ')}`,
    );
    console.log(
      `Database: ${cfg.database.url ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${cfg.dataDir}`}; ` +
        `listening on ${cfg.server.host}:${cfg.server.port}`,
    );
  });

program
  .command('docs')
  .description('regenerate docs/hooks.md, actions.md, errors.md, manifest.md and entities.md from the code')
  .option('-o, --out <dir>', 'output folder', 'docs')
  .option('--commands <file>', 'where the CLI front reads commands from', 'cli/commands.json')
  .action(async (opts: { out: string; commands: string }) => {
    // Every installed plugin, so the references cover what a deployer can enable.
    const cfg = config({ database: { memory: true } });
    // A developer's command: registration is mostly compiling TypeScript, so allow a loaded machine time.
    const kernel = await registeredKernel({
      ...cfg,
      plugins: installedPlugins(cfg).map((p) => p.name),
      pluginTimeoutMs: Math.max(cfg.pluginTimeoutMs, 60000),
    });
    try {
      const written = await generateDocs(kernel, opts.out);
      const contributed = await kernel.hooks.collectAttributed(cliCommands);
      if (writeIfChanged(opts.commands, commandsFile(program, contributed))) written.push(opts.commands);
      for (const file of written) console.log(`wrote ${file}`);
      if (!written.length) console.log('docs: every generated file is up to date');
    } finally {
      await kernel.close();
    }
  });

/** Adds the commands plugins contribute; they run on a started kernel. */
async function addPluginCommands(needed: boolean): Promise<void> {
  let commands: CliCommand[];
  let cfg: Config;
  try {
    cfg = config();
    // Listing commands opens nothing: a PostgreSQL client that never connects (registration sends no SQL), so
    // a running server's lock on the data folder does not hide the command. An in-memory PGlite here would
    // start a whole cluster in the background (seconds of CPU, hundreds of MB) that nothing ever closes.
    // Registration here is mostly compiling TypeScript; on a loaded machine it can pass the plugin limit that
    // guards a server's start, and a command that cannot be listed is worse than a slow one.
    const kernel = await registeredKernel(
      // `memory`: nothing of the data folder either (no secret-key file made just to list commands).
      {
        ...cfg,
        database: { ...cfg.database, url: undefined, memory: true },
        pluginTimeoutMs: Math.max(cfg.pluginTimeoutMs, 60000),
      },
      knexFactory({ client: 'pg', connection: { host: '/nonexistent/crm-cli-listing', database: 'none' } }),
    );
    commands = await kernel.hooks.run(cliCommands);
    await kernel.close();
  } catch (err) {
    if (needed) throw err; // the real cause, not "unknown command"
    return; // A broken config still leaves `crm config check` usable to explain it.
  }
  for (const cmd of commands) {
    const words = cmd.name.split(' ');
    let parent = program;
    for (const word of words.slice(0, -1))
      parent = parent.commands.find((c) => c.name() === word) ?? parent.command(word).description(`${word} commands`);
    const sub = parent.command(words[words.length - 1]).description(cmd.description);
    for (const argument of cmd.arguments ?? [])
      sub.argument(argument.required === false ? `[${argument.name}]` : `<${argument.name}>`, argument.description);
    for (const option of cmd.options ?? []) sub.option(option.flags, option.description, option.default);
    sub.action(async (...raw: unknown[]) => {
      const args = raw.slice(0, (cmd.arguments ?? []).length) as string[];
      const options = raw[(cmd.arguments ?? []).length] as Record<string, unknown>;
      const quiet = { ...cfg, log: { ...cfg.log, level: cfg.log.level === 'info' ? 'warn' : cfg.log.level } };
      // Logs go to stderr: stdout is the command's answer (`--json` included).
      const log = createLogger({ level: quiet.log.level, pretty: quiet.log.pretty, destination: process.stderr });
      // Beside a running server on the embedded database: through the socket it shares.
      const kernel = await createKernel({ config: quiet, log, db: createDb(quiet, log, { attach: true }) });
      try {
        const out = await cmd.run(args, options, cliContext(kernel));
        if (out) console.log(out);
      } finally {
        await kernel.close();
      }
    });
  }
}

/** One clear message and a non-zero exit; stacks only with CRM_DEBUG=1. */
function fail(err: unknown): never {
  if (process.env.CRM_DEBUG === '1') console.error(err);
  else console.error(`crm: ${isKernelError(err) ? err.message : ((err as Error)?.message ?? String(err))}`);
  process.exit(1);
}

const builtins = new Set(program.commands.map((c) => c.name()));
try {
  // Plugin commands need a registered kernel; skip that work for the built-in commands. The global options
  // (`-c <file>`) are read first, so the command is the first operand (not the config path) and plugin
  // commands see the same configuration.
  const [first] = program.parseOptions(process.argv.slice(2)).operands;
  if (!first || !builtins.has(first)) await addPluginCommands(Boolean(first));
  await program.parseAsync(process.argv);
} catch (err) {
  fail(err);
}
