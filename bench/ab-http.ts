/**
 * Two builds of the service, side by side in one process, asked the same bench scenario over real HTTP in
 * alternating blocks: the CPU time per request of each (the process's, so the in-process client's share is
 * in both alike). On a shared machine whose speed drifts by ±10% from one minute to the next, alternating
 * small blocks in one process is what makes a 3–5% change visible (docs/performance.md). Each build is its
 * compiled `dist/` (`node bin/build.mjs` in it first), e.g. a worktree of the base commit beside this one:
 *   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/ && (cd /tmp/base && node bin/build.mjs)
 *   DATABASE_URL=… CRM_DB_SCHEMA=bench_20000 CRM_SITE_KEY=… BENCH_API_KEY=<a key of the bench user> \
 *     node --import tsx/esm bench/ab-http.ts --builds /tmp/base,. --scenario 'email_primary' [--blocks 80]
 *       [--contributor <a contact_id of crm_contribution>]   (for the contribution scenarios)
 * The key comes from `crm key create --user bench` on the bench database (`npm run bench -- --seed-only`).
 * `--baseline` adds the bare koa + pg baseline (bench/baseline.ts) in the same process, asked the page the bench
 * compares the scenario with: the CPU per request of each, side by side, is what a same-run ratio depends on.
 * `--get <path>` asks one route instead of a scenario (GET, with the bench key): what a route costs alone.
 */
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { scenarios, type Scenario } from './scenarios';
import { freePort } from './servers';

const { values: args } = parseArgs({
  options: {
    builds: { type: 'string', default: '.' },
    scenario: { type: 'string', default: 'email_primary' },
    blocks: { type: 'string', default: '80' },
    calls: { type: 'string', default: '25' },
    connections: { type: 'string', default: '4' },
    /** A contact with contributions, for the contribution scenarios (any `contact_id` of crm_contribution). */
    contributor: { type: 'string' },
    /** Also serve the bare baseline (bench/baseline.ts) in this process, asked the scenario's baseline page. */
    baseline: { type: 'boolean', default: false },
    /** Ask this path (GET, the bench key) instead of a scenario; the baseline is then asked `/healthz`. */
    get: { type: 'string' },
  },
});
const apiKey = process.env.BENCH_API_KEY;
if (!apiKey) throw new Error('BENCH_API_KEY: a key of the bench user (crm key create --user bench)');
const contributorId = args.contributor ? Number(args.contributor) : undefined;
/** `--get <path>`: that path asked with GET and the bench key, instead of a bench scenario (a probe of one route). */
const probe = (get: string): Scenario =>
  ({
    name: `GET ${get}`,
    method: 'GET',
    path: get,
    headers: { 'X-Crm-Auth': `Bearer ${apiKey}` },
    baseline: '/healthz',
    check: async () => undefined,
  }) as Scenario;
const scenario = args.get
  ? probe(args.get)
  : scenarios({ apiKey, contributorId }).find((s) => s.name.includes(args.scenario!));
if (!scenario) throw new Error(`no scenario named like ${args.scenario}`);

/** The scenario's request as bytes on the wire (HTTP/1.1, keep-alive). */
function requestBytes(s: Pick<Scenario, 'method' | 'path' | 'headers' | 'body'>): Buffer {
  const body = s.body ?? '';
  const headers = Object.entries({ Host: 'bench', ...s.headers, 'Content-Length': String(Buffer.byteLength(body)) });
  return Buffer.from(
    `${s.method} ${s.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${body}`,
  );
}
const request = requestBytes(scenario);

/** One keep-alive connection: `run(n)` sends the request n times in turn, each answered 200 before the next. */
function connection(port: number, request: Buffer): Promise<(n: number) => Promise<void>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      let pending: Buffer = Buffer.alloc(0);
      let left = 0;
      let done: () => void = () => undefined;
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        for (;;) {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = pending.subarray(0, end).toString('latin1');
          const total = end + 4 + Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (pending.length < total) return;
          if (!head.startsWith('HTTP/1.1 200')) throw new Error(`not 200: ${pending.subarray(0, 300).toString()}`);
          pending = pending.subarray(total);
          if (--left > 0) socket.write(request);
          else done();
        }
      });
      resolve((n) => new Promise<void>((settle) => ((left = n), (done = settle), socket.write(request))));
    });
    socket.on('error', reject);
  });
}

/** A build's service, listening on a free port, with the bench's connections to it. */
async function start(build: string) {
  const root = path.resolve(build);
  const host = (await import(pathToFileURL(path.join(root, 'dist/host/index.js')).href)) as typeof import('../host');
  const config = host.loadConfig({});
  Object.assign(config.server, { port: 0, host: '127.0.0.1' });
  Object.assign(config.log, { level: 'warn' });
  const kernel = await host.createKernel({ config });
  const server = await host.startServer(kernel);
  const port = Number(new URL(server.url).port);
  const runs = await Promise.all(Array.from({ length: Number(args.connections) }, () => connection(port, request)));
  return { build, stop: () => server.stop(), runs, perRequest: [] as number[] };
}

/** The bare baseline (its module listens on PORT once imported), asked the page the bench compares with. */
async function startBaseline() {
  const port = await freePort();
  process.env.PORT = String(port);
  await import('./baseline');
  const page = requestBytes({ method: 'GET', path: scenario!.baseline ?? '/contacts' });
  const connect = async (): Promise<(n: number) => Promise<void>> => {
    for (let tries = 0; ; tries++) {
      try {
        return await connection(port, page);
      } catch (err) {
        if (tries > 50) throw err;
        await new Promise((wait) => setTimeout(wait, 20)); // not listening yet
      }
    }
  };
  const runs = await Promise.all(Array.from({ length: Number(args.connections) }, connect));
  return { build: 'bare baseline', stop: async () => undefined, runs, perRequest: [] as number[] };
}

const servers: Array<Awaited<ReturnType<typeof start>>> = [];
for (const build of args.builds!.split(',')) servers.push(await start(build));
if (args.baseline) servers.push(await startBaseline());
const calls = Number(args.calls);
const block = (s: (typeof servers)[number]) => Promise.all(s.runs.map((run) => run(calls)));
// Warm both (JIT, statement caches, compiled reads) before anything is counted.
for (let i = 0; i < 40; i++) for (const s of servers) await block(s);
for (let b = 0; b < Number(args.blocks); b++)
  for (const s of b % 2 ? [...servers].reverse() : servers) {
    const before = process.cpuUsage();
    await block(s);
    const used = process.cpuUsage(before);
    s.perRequest.push((used.user + used.system) / (calls * s.runs.length));
  }
console.log(`${scenario.name}: CPU µs per request (least, p10, p25, median of ${args.blocks} blocks)`);
for (const s of servers) {
  const sorted = [...s.perRequest].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.floor(sorted.length * q)].toFixed(0);
  console.log(`  ${s.build.padEnd(24)} ${sorted[0].toFixed(0)}  ${at(0.1)}  ${at(0.25)}  ${at(0.5)}`);
}
for (const s of servers) await s.stop();
process.exit(0);
