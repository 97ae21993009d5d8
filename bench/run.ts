/**
 * `npm run bench`: seeds contacts, starts the service and a bare koa baseline as child processes, loads
 * them alternately with autocannon, and reports requests/s, latency, peak RSS, queries per request and
 * the ratio to the baseline. `--smoke` is the short run CI makes so the benchmark cannot rot.
 * This file holds the options and the run; measure.ts measures and tabulates, servers.ts runs the processes.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderChart } from './chart';
import { load, queries, summarise, table, type Round, type Row } from './measure';
import { benchImportExport, importExportTable, type ImportExportFigures } from './import-export';
import { scenarios } from './scenarios';
import { pgbenchRate } from './pgbench';
import { BASELINE_PAGES } from './sql';
import { prepareDatabase, type BenchDatabase } from './seed';
import { freePort, peakRssMb, start, waitHealthy } from './servers';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    contacts: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '2' },
    only: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    engine: { type: 'string' },
    'seed-only': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});

const smoke = args.smoke;
const opts = {
  contacts: smoke ? 300 : Number(args.contacts),
  duration: smoke ? 1 : Number(args.duration),
  warmup: smoke ? 0.3 : Number(args.warmup),
  connections: Number(args.connections),
  rounds: smoke ? 1 : Number(args.rounds),
  engine: (args.engine ?? (process.env.DATABASE_URL ? 'postgresql' : 'pglite')) as 'postgresql' | 'pglite',
};

function log(msg: string) {
  process.stderr.write(`${msg}\n`);
}

async function main() {
  log(
    `bench: ${opts.contacts} contacts on ${opts.engine}, ${opts.connections} connections, ` +
      `${opts.duration}s x ${opts.rounds} rounds${smoke ? ' (smoke)' : ''}`,
  );
  const workDir = path.join(root, 'var', 'bench');
  mkdirSync(workDir, { recursive: true });
  const configFile = path.join(workDir, 'crm.config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      pluginPaths: [path.join(root, 'bench', 'plugins')],
      enable: ['bench-probe'],
      pluginConfig: { users: { firstRun: false } },
    }),
  );
  const db: BenchDatabase = await prepareDatabase({
    root,
    contacts: opts.contacts,
    engine: opts.engine,
    configFile,
    log,
  });
  if (args['seed-only']) return;

  let baselineEnv: Record<string, string> = { ...db.env };
  if (opts.engine === 'pglite') {
    // PGlite is single-process: the baseline reads its own copy of the seeded data.
    const copy = path.join(workDir, 'baseline-pgdata');
    rmSync(copy, { recursive: true, force: true });
    cpSync(path.join(db.dataDir!, 'pgdata'), copy, { recursive: true });
    baselineEnv = { BASELINE_PGDATA: copy };
  }
  // --profile: the service writes a V8 CPU profile when it stops (summarise it with bench/profile.ts).
  const profileDir = path.join(workDir, 'profiles');
  const crm = start(
    root,
    'crm',
    [...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'bin/crm.mjs', 'serve'],
    db.env,
    await freePort(),
  );
  const baseline = start(root, 'baseline', ['--import', 'tsx/esm', 'bench/baseline.ts'], baselineEnv, await freePort());
  const stopAll = () => {
    crm.child.kill('SIGTERM');
    baseline.child.kill('SIGTERM');
  };
  process.once('SIGINT', () => {
    stopAll();
    process.exit(130);
  });
  try {
    await Promise.all([waitHealthy(crm.url, crm.child, 'crm'), waitHealthy(baseline.url, baseline.child, 'baseline')]);
    const ctx = await db.credentials(crm.url);
    const chosen = scenarios(ctx).filter(
      (s) => !args.only || args.only.split('|').some((part) => s.name.includes(part)),
    );
    // Both servers start cold (JIT, and for PGlite the WebAssembly engine's tiers and caches): warm
    // each once on its own page before the first scenario, so that one is not measured cold.
    if (opts.warmup > 0) {
      await load(opts.connections, crm.url, scenarios(ctx)[0], opts.warmup * 2);
      await load(opts.connections, baseline.url, { method: 'GET', path: '/contacts' }, opts.warmup * 2);
    }
    const rows: Row[] = [];
    const problems: string[] = [];
    for (const scenario of chosen) {
      const check = await scenario.check(crm.url);
      if (check) problems.push(`${scenario.name}: ${check}`);
      const runs: Round[] = [];
      for (let round = 0; round < opts.rounds; round++) {
        // Alternate, so drift of the machine affects both servers alike.
        const connections = scenario.connections ?? opts.connections;
        if (opts.warmup > 0) await load(connections, crm.url, scenario, opts.warmup);
        const q0 = await queries(crm.url);
        const crmRun = await load(connections, crm.url, scenario, opts.duration);
        const q1 = await queries(crm.url);
        const page = { method: 'GET' as const, path: scenario.baseline ?? '/contacts' };
        if (opts.warmup > 0) await load(connections, baseline.url, page, opts.warmup);
        const baselineRun = await load(connections, baseline.url, page, opts.duration);
        runs.push({ crm: crmRun, baseline: baselineRun, q: crmRun.requests ? (q1 - q0 - 1) / crmRun.requests : NaN });
      }
      const row = summarise(scenario.name, runs);
      row.peakRssMb = peakRssMb(crm.child.pid!);
      if (scenario.pgbench && db.env.DATABASE_URL) {
        const connections = scenario.connections ?? opts.connections;
        const rate = await pgbenchAlone(db.env, scenario.baseline ?? '/contacts', connections, opts.duration).catch(
          (err: Error) => void problems.push(`${scenario.name}: ${err.message}`),
        );
        if (rate) row.pgbench = { rps: rate, clients: connections, seconds: Math.max(1, Math.round(opts.duration)) };
      }
      if (row.crm.errors || row.crm.non2xx)
        problems.push(`${scenario.name}: ${row.crm.errors} errors, ${row.crm.non2xx} non-2xx answers`);
      rows.push(row);
      log(
        `  ${scenario.name}: ${row.crm.rps.toFixed(0)} req/s ` +
          `(baseline ${row.baseline.rps.toFixed(0)}, ratio ${(row.ratio * 100).toFixed(0)}%), ` +
          `p50 ${row.crm.p50} ms, p99 ${row.crm.p99} ms (baseline ${row.baseline.p50} / ${row.baseline.p99} ms), ` +
          `${row.queriesPerRequest.toFixed(2)} queries/request` +
          (row.pgbench ? `; pgbench alone ${row.pgbench.rps.toFixed(0)}/s` : ''),
      );
    }
    const peak = peakRssMb(crm.child.pid!);
    const baselinePeak = peakRssMb(baseline.child.pid!);
    let importExport: ImportExportFigures | undefined;
    if (!args.only || 'crm import export'.includes(args.only))
      importExport = await benchImportExport({ root, engine: opts.engine, contacts: opts.contacts, log });
    const result = {
      date: new Date().toISOString(),
      ...opts,
      peakRssMb: peak,
      baselinePeakRssMb: baselinePeak,
      node: process.version,
      rows,
      importExport,
    };
    const outDir = path.join(root, 'bench', 'results');
    mkdirSync(outDir, { recursive: true });
    if (!smoke) {
      const stamp = result.date.replace(/[:.]/g, '-');
      // The default size keeps the short name; other sizes say theirs (latest-postgresql-1000000.json).
      const name = `${opts.engine}${opts.contacts === 100_000 ? '' : `-${opts.contacts}`}`;
      writeFileSync(path.join(outDir, `${stamp}-${name}.json`), JSON.stringify(result, null, 2));
      writeFileSync(path.join(outDir, `latest-${name}.json`), JSON.stringify(result, null, 2));
      writeFileSync(path.join(outDir, `latest-${name}.svg`), renderChart(result));
    }
    console.log(table(rows, peak, baselinePeak));
    if (importExport) console.log(`\n${importExportTable(importExport)}`);
    if (problems.length) {
      console.error(`bench: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    stopAll();
    await db.close();
  }
}

/** pgbench on a baseline page's statement, against the bench database (undefined: pgbench not installed). */
function pgbenchAlone(env: Record<string, string>, page: string, clients: number, seconds: number) {
  const known = BASELINE_PAGES[page];
  if (!known || typeof known.sql !== 'string') throw new Error(`pgbench: no fixed statement for ${page}`);
  const sql = known.sql;
  return pgbenchRate({
    url: env.DATABASE_URL,
    schema: env.CRM_DB_SCHEMA,
    sql,
    params: known.params({}),
    clients,
    seconds,
  });
}

if (!existsSync(path.join(root, 'node_modules', 'autocannon'))) throw new Error('run npm ci first');
await main();
