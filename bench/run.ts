/**
 * `npm run bench`: seeds contacts, starts the service and a bare koa baseline as child processes, loads
 * them alternately with autocannon, and reports requests/s, latency, peak RSS, queries per request and
 * the ratio to the baseline. `--smoke` is the short run CI makes so the benchmark cannot rot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { renderChart } from './chart';
import { scenarios, type Scenario } from './scenarios';
import { prepareDatabase, type BenchDatabase } from './seed';

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

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}
interface Row {
  scenario: string;
  crm: Measure;
  baseline: Measure;
  ratio: number;
  queriesPerRequest: number;
  /** The service's peak RSS so far (MB), read after this scenario. */ peakRssMb?: number;
}

function log(msg: string) {
  process.stderr.write(`${msg}\n`);
}

async function waitHealthy(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy`);
}

function start(name: string, cmd: string[], env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, cmd, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

/** A port nobody listens on now, so two runs on one machine do not load each other's servers. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
  });
}

/** Peak resident memory of a process, from the kernel's own bookkeeping (VmHWM). */
function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  } catch {
    return NaN; // the process is gone (its exit is reported on its own)
  }
}

async function load(
  url: string,
  scenario: Pick<Scenario, 'method' | 'path' | 'headers' | 'body'>,
  seconds: number,
): Promise<Measure> {
  const result = await autocannon({
    url: url + scenario.path,
    method: scenario.method,
    headers: scenario.headers,
    body: scenario.body,
    connections: opts.connections,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

async function queries(url: string): Promise<number> {
  return ((await (await fetch(`${url}/__bench/stats`)).json()) as { queries: number }).queries;
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
    'crm',
    [...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), 'bin/crm.mjs', 'serve'],
    db.env,
    await freePort(),
  );
  const baseline = start('baseline', ['--import', 'tsx/esm', 'bench/baseline.ts'], baselineEnv, await freePort());
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
    const chosen = scenarios(ctx).filter((s) => !args.only || s.name.includes(args.only));
    // Both servers start cold (JIT, and for PGlite the WebAssembly engine's tiers and caches): warm
    // each once on its own page before the first scenario, so that one is not measured cold.
    if (opts.warmup > 0) {
      await load(crm.url, scenarios(ctx)[0], opts.warmup * 2);
      await load(baseline.url, { method: 'GET', path: '/contacts' }, opts.warmup * 2);
    }
    const rows: Row[] = [];
    const problems: string[] = [];
    for (const scenario of chosen) {
      const check = await scenario.check(crm.url);
      if (check) problems.push(`${scenario.name}: ${check}`);
      const runs: Array<{ crm: Measure; baseline: Measure; q: number }> = [];
      for (let round = 0; round < opts.rounds; round++) {
        // Alternate, so drift of the machine affects both servers alike.
        if (opts.warmup > 0) await load(crm.url, scenario, opts.warmup);
        const q0 = await queries(crm.url);
        const crmRun = await load(crm.url, scenario, opts.duration);
        const q1 = await queries(crm.url);
        if (opts.warmup > 0) await load(baseline.url, { method: 'GET', path: '/contacts' }, opts.warmup);
        const baselineRun = await load(baseline.url, { method: 'GET', path: '/contacts' }, opts.duration);
        runs.push({ crm: crmRun, baseline: baselineRun, q: crmRun.requests ? (q1 - q0 - 1) / crmRun.requests : NaN });
      }
      const pick = (k: keyof Measure, side: 'crm' | 'baseline') =>
        runs.reduce((a, r) => a + r[side][k], 0) / runs.length;
      const measure = (side: 'crm' | 'baseline'): Measure => ({
        rps: pick('rps', side),
        p50: pick('p50', side),
        p99: Math.max(...runs.map((r) => r[side].p99)),
        errors: pick('errors', side),
        non2xx: pick('non2xx', side),
        requests: pick('requests', side),
      });
      const row: Row = {
        scenario: scenario.name,
        crm: measure('crm'),
        baseline: measure('baseline'),
        ratio: 0,
        queriesPerRequest: runs.reduce((a, r) => a + r.q, 0) / runs.length,
      };
      row.ratio = row.crm.rps / row.baseline.rps;
      row.peakRssMb = peakRssMb(crm.child.pid!);
      if (row.crm.errors || row.crm.non2xx)
        problems.push(`${scenario.name}: ${row.crm.errors} errors, ${row.crm.non2xx} non-2xx answers`);
      rows.push(row);
      log(
        `  ${scenario.name}: ${row.crm.rps.toFixed(0)} req/s ` +
          `(baseline ${row.baseline.rps.toFixed(0)}, ratio ${(row.ratio * 100).toFixed(0)}%), ` +
          `p50 ${row.crm.p50} ms, p99 ${row.crm.p99} ms (baseline ${row.baseline.p50} / ${row.baseline.p99} ms), ` +
          `${row.queriesPerRequest.toFixed(2)} queries/request`,
      );
    }
    const peak = peakRssMb(crm.child.pid!);
    const baselinePeak = peakRssMb(baseline.child.pid!);
    const result = {
      date: new Date().toISOString(),
      ...opts,
      peakRssMb: peak,
      baselinePeakRssMb: baselinePeak,
      node: process.version,
      rows,
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
    if (problems.length) {
      console.error(`bench: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    stopAll();
    await db.close();
  }
}

function table(rows: Row[], peak: number, baselinePeak: number): string {
  const head =
    '| Scenario | req/s | baseline req/s | ratio | p50 ms | p99 ms | baseline p50 / p99 ms | queries/request |\n' +
    '|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.crm.rps.toFixed(0)} | ${r.baseline.rps.toFixed(0)} | ${(r.ratio * 100).toFixed(0)}% ` +
      `| ${r.crm.p50} | ${r.crm.p99} | ${r.baseline.p50} / ${r.baseline.p99} | ${r.queriesPerRequest.toFixed(2)} |`,
  );
  return `${head}\n${lines.join('\n')}\n\nPeak RSS of the service: ${peak} MB (bare baseline: ${baselinePeak} MB)`;
}

if (!existsSync(path.join(root, 'node_modules', 'autocannon'))) throw new Error('run npm ci first');
await main();
