/**
 * `npm run test:hostile [-- --soak] [-- --seed N]`: the hostile-input suite (issue 17, docs/security.md).
 *
 * Boots the real service on a real port (PGlite in memory; PostgreSQL when DATABASE_URL is set),
 * seeds users, keys and a JWT, then fires the known cases and fast-check generated requests
 * over every mounted route, judging each answer (status < 500, no internals, the binding's envelope,
 * XML that parses). API reads over GET run in batches between fingerprints of the data tables, so a
 * write over GET is caught and pinned to its request. Then the bypass pass, the secrets search over
 * every answer and the captured log, and a database integrity check. Prints the figures; exits 1
 * when a must-be-zero figure is not zero or the slowest answer took 2 s or more.
 */
import { Judge } from './checks';
import { closeClient, pool, send, type HostileRequest, type HostileResponse } from './client';
import { requestArbitrary, sampleRequests } from './generators';
import { adminHeaders, api4Request, knownCases, routeInfos } from './probes';
import { MARKER, runBypass } from './bypass';
import { SITE_KEY, startService, type Service } from './service';
import { integrityProblems, snapshot } from './integrity';

type Obj = Record<string, unknown>;

const args = process.argv.slice(2);
const soak = args.includes('--soak');
const seedArg = args.indexOf('--seed');
const seed = seedArg >= 0 ? Number(args[seedArg + 1]) : Number(process.env.HOSTILE_SEED ?? Date.now() % 1e9);
const GENERATED = Number(process.env.HOSTILE_REQUESTS ?? (soak ? 50000 : 5000));
const CONCURRENCY = 4;
const BATCH = 24;
const SLOW_MS = 2000;
/** Answers that checked a password (scrypt) are bounded apart: one check alone takes ~0.1 s on an idle core. */
const SLOW_PASSWORD_MS = 5000;

async function main(): Promise<number> {
  const started = Date.now();
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`hostile: ${soak ? 'soak' : 'short'} run on ${db}, seed ${seed}, ${GENERATED} generated requests`);
  const svc = await startService();
  const judge = new Judge();
  const fire = async (req: HostileRequest): Promise<HostileResponse | undefined> => {
    try {
      const res = await send(svc.base, req);
      judge.judge(req, res);
      return res;
    } catch (err) {
      judge.transportError(req, err);
      return undefined;
    }
  };
  try {
    await seedData(svc, fire);
    const routes = routeInfos(svc);
    const creds = {
      adminKey: svc.admin.key,
      selfieKey: svc.selfie.key,
      nobodyKey: svc.nobody.key,
      siteKey: SITE_KEY,
      jwt: svc.jwt,
    };
    console.log('hostile: bypass pass (on the seeded data, before the generated writes)…');
    const bypass = await runBypass(svc, fire);
    judge.figures.bypassAttempts = bypass.attempts;
    judge.figures.bypasses = bypass.bypasses.length;
    for (const failed of bypass.controlsFailed)
      judge.findings.push({ kind: 'control', request: failed, detail: 'a valid credential was not accepted' });
    for (const found of bypass.bypasses.slice(0, 25))
      judge.findings.push({ kind: 'bypass', request: found.request, detail: found.detail });
    const known = await knownCases(svc);
    const generated = sampleRequests(requestArbitrary(routes, creds), GENERATED, seed);
    const all = [...known, ...generated];
    // Reads over GET on the API end-points (and GET chains) run between fingerprints of the data tables.
    const overGet = all.filter((r) => (r.method === 'GET' || r.method === 'HEAD') && r.binding.startsWith('api'));
    const getSet = new Set(overGet);
    const rest = all.filter((r) => !getSet.has(r));
    console.log(`hostile: ${overGet.length} API requests over GET, ${rest.length} others`);
    for (let i = 0; i < overGet.length; i += BATCH) {
      const batch = overGet.slice(i, i + BATCH);
      const before = await snapshot(svc.t.kernel.db);
      await pool(batch, CONCURRENCY, async (r) => void (await fire(r)));
      if ((await snapshot(svc.t.kernel.db)) === before) continue;
      // Something wrote: replay the batch one by one to name the request(svc).
      for (const req of batch) {
        const one = await snapshot(svc.t.kernel.db);
        await fire(req);
        if ((await snapshot(svc.t.kernel.db)) !== one) {
          judge.figures.writesOverGet++;
          judge.finding('write over GET', req, 'the data tables changed');
        }
      }
    }
    // Logins (password hashing) one at a time: the figure is the service's answer time, not a queue on 2 cores.
    const isLogin = (r: HostileRequest) => r.path.startsWith('/crm/login') && r.method === 'POST';
    const logins = rest.filter(isLogin);
    const others = rest.filter((r) => !isLogin(r));
    await pool(others, CONCURRENCY, async (r) => void (await fire(r)));
    await pool(logins, 1, async (r) => void (await fire(r)));
    // Secrets: in no answer (unless the request itself carried it) and in no log line.
    for (const [name, secret] of svc.secrets) {
      for (const answer of judge.answers) {
        if (answer.text.includes(secret) && !answer.sent.includes(secret)) {
          judge.figures.leaks++;
          judge.findings.push({ kind: 'leak', request: answer.label, detail: `${name} in an answer` });
        }
      }
      for (const line of svc.t.logs) {
        if (line.includes(secret)) {
          judge.figures.leaks++;
          judge.findings.push({ kind: 'leak', request: 'log', detail: `${name} in the log: ${line.slice(0, 200)}` });
        }
      }
    }
    const longest = svc.t.logs.reduce((m, l) => Math.max(m, l.length), 0);
    const problems = await integrityProblems(svc.t.kernel.db);
    judge.figures.integrity = problems.length;
    for (const problem of problems) judge.findings.push({ kind: 'integrity', request: '-', detail: problem });

    const figures = judge.figures;
    for (const found of judge.findings) console.log(`FINDING ${found.kind}: ${found.request}\n    → ${found.detail}`);
    const rows: Array<[string, string | number, boolean]> = [
      ['requests', figures.requests, true],
      ['5xx answers', figures.serverErrors, figures.serverErrors === 0],
      ['transport errors (reset, timeout)', figures.transportErrors, figures.transportErrors === 0],
      ['answers with internals', figures.internals, figures.internals === 0],
      ["answers outside the binding's envelope", figures.offEnvelope, figures.offEnvelope === 0],
      ['unparseable XML', figures.badXml, figures.badXml === 0],
      ['writes over GET', figures.writesOverGet, figures.writesOverGet === 0],
      [
        `slowest answer but password checks, ms (< ${SLOW_MS})`,
        Math.round(figures.slowestMs),
        figures.slowestMs < SLOW_MS,
      ],
      [
        `slowest password check, ms (< ${SLOW_PASSWORD_MS})`,
        Math.round(judge.slowestPassword),
        judge.slowestPassword < SLOW_PASSWORD_MS,
      ],
      ['bypass attempts', figures.bypassAttempts, true],
      ['accepted when it should not', figures.bypasses, figures.bypasses === 0],
      ['controls not accepted (valid credentials)', bypass.controlsFailed.length, bypass.controlsFailed.length === 0],
      ['secrets in answers or the log', figures.leaks, figures.leaks === 0],
      ['integrity problems', figures.integrity, figures.integrity === 0],
      ['longest log line, bytes (reported)', longest, true],
    ];
    console.log(
      `\nhostile figures (${soak ? 'soak' : 'short'}, ${db}, seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s)`,
    );
    for (const [name, value, ok] of rows)
      console.log(`  ${ok ? ' ' : '✗'} ${name.padEnd(50)} ${String(value).padStart(8)}`);
    console.log(`  slowest: ${figures.slowest}`);
    return rows.every(([, , ok]) => ok) ? 0 : 1;
  } finally {
    closeClient();
    await svc.close();
  }
}

/** A few contacts and emails, and the other contact the ACL probes must never reach. */
async function seedData(svc: Service, fire: (req: HostileRequest) => Promise<HostileResponse | undefined>) {
  const admin = adminHeaders(svc);
  const call = async (entity: string, action: string, params: Obj) => {
    const res = await fire(api4Request(admin, entity, action, params, 'setup'));
    const v = JSON.parse(res?.text ?? '{}');
    if (!Array.isArray(v.values)) throw new Error(`seeding ${entity}.${action} failed: ${res?.text.slice(0, 300)}`);
    return v.values as Obj[];
  };
  const [other] = await call('Contact', 'create', {
    values: { contact_type: 'Individual', first_name: MARKER, last_name: 'Other' },
  });
  const [email] = await call('Email', 'create', {
    values: { contact_id: other.id, email: `${MARKER.toLowerCase()}@example.org` },
  });
  svc.other = { contactId: Number(other.id), emailId: Number(email.id) };
  await call('Email', 'create', { values: { contact_id: svc.selfie.contactId, email: 'selfie@example.org' } });
  for (let i = 0; i < 5; i++)
    await call('Contact', 'create', {
      values: { contact_type: 'Individual', first_name: `Seed${i}`, last_name: 'Example' },
    });
  // A field holding characters XML 1.0 forbids, written by the self-only user on their own contact.
  const res = await fire(
    api4Request(
      [
        ['X-Crm-Auth', `Bearer ${svc.selfie.key}`],
        ['X-Requested-With', 'XMLHttpRequest'],
      ],
      'Contact',
      'update',
      { where: [['id', '=', svc.selfie.contactId]], values: { last_name: 'Self\uFFFE\uFFFF\u0001\u0008\u000b x' } },
      'setup: XML-forbidden characters in own contact',
    ),
  );
  if (!res || res.status !== 200)
    console.log(`hostile: the self-only user's update failed: ${res?.text.slice(0, 200)}`);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
