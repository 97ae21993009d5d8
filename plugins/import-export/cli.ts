/** `crm import <file.csv>` and `crm export`: options, progress on stderr, the summary as JSON on stdout. */
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { KernelError } from '../../kernel';
import type { CliCommand, CliContext } from '../../host';
import { CLI_PRINCIPAL, type EntityRegistry, type EntityService } from '../entity-core';
import { api4, walkableSort, type Keyset } from '../api4';
import { parseWhere, runExport } from './exporter';
import { runImport } from './importer';
import { progressReporter } from './progress';
import type { ImportExportOptions } from './register';

type Opts = Record<string, unknown>;

function choice<T extends string>(value: unknown, allowed: readonly T[], flag: string): T {
  if (!allowed.includes(value as T))
    throw new KernelError('E_INVALID_PARAMS', `${flag} must be one of ${allowed.join(', ')}, not ${String(value)}`);
  return value as T;
}

function mapFile(path: unknown): Record<string, unknown> | undefined {
  if (typeof path !== 'string') return undefined;
  let map: unknown;
  try {
    map = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new KernelError('E_INVALID_PARAMS', `--map ${path}: ${(err as Error).message}`);
  }
  if (!map || typeof map !== 'object' || Array.isArray(map))
    throw new KernelError('E_INVALID_PARAMS', `--map ${path} must be a JSON object: {"CSV header": "field"}`);
  return map as Record<string, unknown>;
}

function positive(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new KernelError('E_INVALID_PARAMS', `${flag} must be a positive integer`);
  return n;
}

/** `--sort <field>[:desc]`: a field that can order a keyset walk (api4's `walkableSort`). */
async function sortOf(value: unknown, entity: string, scope: Parameters<typeof api4>[0]): Promise<Keyset | undefined> {
  if (value === undefined) return undefined;
  const [field, dir = 'asc'] = String(value).split(':');
  const getFields = (params: Opts) => api4(scope, entity, 'getFields', { ...params, checkPermissions: false });
  if (!/^(asc|desc)$/i.test(dir) || !(await walkableSort(field, getFields)))
    throw new KernelError(
      'E_INVALID_PARAMS',
      `--sort ${String(value)}: give a String, Text, Integer or Date field of ${entity}, with :desc to reverse`,
    );
  return { field, dir: dir.toUpperCase() as Keyset['dir'] };
}

/** From the CLI's kernel (the one that runs the command, not the one that listed it). */
function depsOf(cli: CliContext) {
  const services = cli.services as unknown as { entityService: EntityService; entities: EntityRegistry };
  return { db: cli.db, service: services.entityService, registry: services.entities, principal: CLI_PRINCIPAL };
}

export function importExportCommands(config: ImportExportOptions): CliCommand[] {
  const importCommand: CliCommand = {
    name: 'import',
    description: 'Import contacts from a CSV file in batches (one transaction each); prints the summary as JSON',
    arguments: [{ name: 'file', description: 'the CSV file (a header row, then one contact per row)' }],
    options: [
      { flags: '--map <map.json>', description: 'column mapping {"CSV header": "field"} (default: guessed)' },
      { flags: '--on-duplicate <rule>', description: 'skip, update or fill a matching contact', default: 'skip' },
      { flags: '--match <field>', description: 'duplicate rule: email or external_identifier', default: 'email' },
      { flags: '--errors <file.csv>', description: 'write each rejected row with its row number and reason here' },
      { flags: '--encoding <label>', description: 'the file encoding when not UTF-8 (latin1, windows-1252…)' },
      { flags: '--batch-size <n>', description: 'rows per transaction (default: the plugin config, 1000)' },
      { flags: '--quiet', description: 'no progress on standard error' },
      { flags: '--resume [job]', description: 'go on with the unfinished import of this file (or this job id)' },
    ],
    run: async (args: string[], opts: Opts, cli: CliContext) => {
      const resume = opts.resume === true ? true : opts.resume ? positive(opts.resume, '--resume', 0) : false;
      const progress = progressReporter(process.stderr, Boolean(opts.quiet));
      const summary = await runImport(depsOf(cli), {
        input: { path: args[0] },
        map: mapFile(opts.map),
        rule: choice(opts.onDuplicate ?? 'skip', ['skip', 'update', 'fill'] as const, '--on-duplicate'),
        on: choice(opts.match ?? 'email', ['email', 'external_identifier'] as const, '--match'),
        batchSize: positive(opts.batchSize, '--batch-size', config.batchSize),
        batchesInFlight: config.batchesInFlight,
        csv: { encoding: opts.encoding as string | undefined, maxRecordBytes: config.maxFieldBytes },
        errors: opts.errors as string | undefined,
        resume,
        progress: progress.update,
      });
      progress.done();
      return JSON.stringify(summary, null, 2);
    },
  };
  const exportCommand: CliCommand = {
    name: 'export',
    description: 'Export records (default Contact) as CSV or JSON, streamed page by page; formula cells neutralised',
    options: [
      { flags: '--entity <name>', description: 'the APIv4 entity', default: 'Contact' },
      { flags: '--select <fields>', description: 'comma-separated APIv4 select (default *)' },
      { flags: '--where <json>', description: 'APIv4 where, e.g. [["contact_type","=","Individual"]]' },
      { flags: '--format <format>', description: 'csv or json', default: 'csv' },
      { flags: '-o, --output <file>', description: 'write here (default: standard output)' },
      { flags: '--page-size <n>', description: 'rows per keyset page', default: '5000' },
      {
        flags: '--sort <field>',
        description: 'order by a String, Text, Integer or Date field (field:desc to reverse)',
      },
    ],
    run: async (_args: string[], opts: Opts, cli: CliContext) => {
      const scope = cli.api.scope('cli', CLI_PRINCIPAL);
      const entity = String(opts.entity ?? 'Contact');
      const out = typeof opts.output === 'string' ? createWriteStream(opts.output) : process.stdout;
      const started = Date.now();
      try {
        const count = await runExport(
          async (params) => (await api4(scope, entity, 'get', { ...params, checkPermissions: false })).values as never,
          out,
          {
            select: typeof opts.select === 'string' ? opts.select.split(',').map((s) => s.trim()) : undefined,
            where: parseWhere(opts.where as string | undefined),
            format: choice(opts.format ?? 'csv', ['csv', 'json'] as const, '--format'),
            pageSize: positive(opts.pageSize, '--page-size', 5000),
            sort: await sortOf(opts.sort, entity, scope),
          },
        );
        if (out !== process.stdout) {
          out.end();
          await once(out, 'finish');
          return JSON.stringify({ entity, rows: count, file: opts.output, seconds: (Date.now() - started) / 1000 });
        }
      } finally {
        await scope.dispose();
      }
    },
  };
  return [importCommand, exportCommand];
}
