/**
 * Prepares the benchmark database: migrations through the CLI, then N contacts with a primary email
 * and phone each, inserted by bulk SQL in chunks (with a progress bar). A seeded database is reused
 * when it already holds N contacts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPGLite from 'knex-pglite';
import { seedExtras } from './seed-extras';
import { defineBenchCustomData } from './seed-custom';
import type { BenchCredentials } from './scenarios';

export interface BenchDatabase {
  /** Environment for the service and the baseline. */
  env: Record<string, string>;
  /** Embedded database folder (PGlite only). */
  dataDir?: string;
  credentials(url: string): Promise<BenchCredentials>;
  close(): Promise<void>;
}

const SURNAMES = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Khan',
  'Lewis',
  'James',
  'Phillips',
  'Mason',
  'Mitchell',
  'Rose',
  'Davis',
  'Rodriguez',
  'Cox',
  'Alexander',
  'Garcia',
  'Campbell',
  'Johnston',
  'Moore',
  'Smyth',
  "O'Neill",
  'Doherty',
  'Stewart',
  'Quinn',
  'Murphy',
  'Graham',
  'Mclaughlin',
  'Hamilton',
  'Murray',
  'Hughes',
  'Robertson',
  'Thomson',
  'Scott',
];
const FIRSTS = [
  'Anna',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Farid',
  'Grace',
  'Hugo',
  'Iris',
  'Jamal',
  'Kate',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pedro',
  'Quinn',
  'Rosa',
  'Sami',
  'Tara',
];

function progress(label: string, done: number, total: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r${label} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`);
  if (done === total) process.stderr.write('\n');
}

async function seed(db: Knex, contacts: number, log: (m: string) => void) {
  await db.raw('create table if not exists crm_bench_seed (contacts integer not null)');
  const [marker] = await db('crm_bench_seed').select('contacts');
  if (marker) {
    if (Number(marker.contacts) !== contacts)
      throw new Error(
        `the bench database was seeded with ${marker.contacts} contacts, not ${contacts}: delete it first`,
      );
    // Contacts made by earlier runs' create scenario go, so every run starts from the same data.
    await db('crm_contact').where({ first_name: 'Bench', last_name: 'Mark' }).delete();
    log(`bench: reusing ${contacts} seeded contacts`);
    return;
  }
  if (Number((await db('crm_contact').count({ n: '*' }))[0].n) > 0)
    throw new Error('the bench database holds contacts it did not seed: delete it first');
  const surnames = `(array[${SURNAMES.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}])`;
  const firsts = `(array[${FIRSTS.map((s) => `'${s}'`).join(',')}])`;
  const chunk = 10_000;
  for (let from = 1; from <= contacts; from += chunk) {
    const to = Math.min(contacts, from + chunk - 1);
    await db.transaction(async (trx) => {
      await trx.raw(
        `
        insert into crm_contact (contact_type, first_name, last_name, display_name, sort_name, created_date, modified_date)
        select 'Individual', f, l, f || ' ' || l, l || ', ' || f, now(), now()
        from (select g, ${firsts}[1 + (g * 7) % ${FIRSTS.length}] as f,
                     ${surnames}[1 + (g * 13) % ${SURNAMES.length}] || (g % 97)::text as l
              from generate_series(?::int, ?::int) g) s`,
        [from, to],
      );
      await trx.raw(
        `
        insert into crm_email (contact_id, location_type_id, email, is_primary)
        select id, 1, lower(first_name) || '.' || id || '@example.org', true from crm_contact where id between ? and ?`,
        [from, to],
      );
      await trx.raw(
        `
        insert into crm_phone (contact_id, location_type_id, phone, phone_numeric, phone_type_id, is_primary)
        select id, 1, '+44 20 7946 ' || lpad((id % 10000)::text, 4, '0'), '44207946' || lpad((id % 10000)::text, 4, '0'), 1, true
        from crm_contact where id between ? and ?`,
        [from, to],
      );
    });
    progress('bench: seeding contacts', to, contacts);
  }
  await db('crm_bench_seed').insert({ contacts });
  // What autovacuum does to a live database: statistics, and the visibility map index-only scans need.
  await db.raw('vacuum analyze');
}

export const BENCH_SITE_KEY = 'bench-site-key-0123456789';

export async function prepareDatabase(options: {
  root: string;
  contacts: number;
  engine: 'postgresql' | 'pglite';
  configFile: string;
  log: (m: string) => void;
}): Promise<BenchDatabase> {
  const cli = (env: Record<string, string>, ...args: string[]) =>
    execFileSync(process.execPath, [path.join(options.root, 'bin/crm.mjs'), ...args], {
      cwd: options.root,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      encoding: 'utf8',
    });
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let open: () => Knex;
  if (options.engine === 'postgresql') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is needed for --engine postgresql');
    const schema = `bench_${options.contacts}`;
    env = { DATABASE_URL: url, CRM_DB_SCHEMA: schema, CRM_CONFIG: options.configFile, CRM_SITE_KEY: BENCH_SITE_KEY };
    open = () => knexFactory({ client: 'pg', connection: url, searchPath: [schema], pool: { min: 0, max: 2 } });
  } else {
    dataDir = path.join(options.root, 'var', 'bench', `pglite-${options.contacts}`);
    if (existsSync(dataDir) && !existsSync(path.join(dataDir, 'seeded')))
      rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    env = { CRM_DATA_DIR: dataDir, CRM_CONFIG: options.configFile, CRM_SITE_KEY: BENCH_SITE_KEY };
    const dir = path.join(dataDir, 'pgdata');
    open = () =>
      knexFactory({
        client: ClientPGLite as unknown as typeof knexFactory.Client,
        dialect: 'postgres',
        connection: { filename: dir },
      });
  }
  options.log('bench: migrating');
  cli(env, 'migrate');
  // Custom groups are defined through the service (it makes their tables) before the database is opened here.
  defineBenchCustomData(cli, env);
  const db = open();
  let email: string | undefined;
  let extras: Awaited<ReturnType<typeof seedExtras>> | undefined;
  try {
    await seed(db, options.contacts, options.log);
    extras = await seedExtras(db, options.log);
    // A contact from the middle of the table, for the exact-match scenarios.
    const row = await db('crm_email')
      .where({ is_primary: true })
      .orderBy('contact_id')
      .offset(Math.floor(options.contacts / 2))
      .first('email');
    email = row?.email;
  } finally {
    await db.destroy();
  }
  if (dataDir) writeFileSync(path.join(dataDir, 'seeded'), String(options.contacts));
  const credentials = { ...(await createCredentials(cli, env)), email, ...extras };
  return { env, dataDir, credentials: async () => credentials, close: async () => undefined };
}

/** Credentials for the authenticated scenarios, made through the CLI as a deployer would. */
async function createCredentials(
  cli: (env: Record<string, string>, ...args: string[]) => string,
  env: Record<string, string>,
): Promise<BenchCredentials> {
  try {
    cli(env, 'user', 'add', 'bench', '--roles', 'administrator', '--no-password');
  } catch {
    // Already there from an earlier run on this database.
  }
  const list = cli(env, 'user', 'list', '--json');
  const users = JSON.parse(list) as Array<{ username: string; contact: number }>;
  const found = users.find((user) => user.username === 'bench')?.contact;
  const contactId = found === undefined ? undefined : String(found);
  if (!contactId) throw new Error(`bench user not found in:\n${list}`);
  const apiKey = cli(env, 'key', 'create', '--user', 'bench', '--label', 'bench').trim().split('\n').pop()!.trim();
  const jwt = cli(env, 'jwt', 'issue', '--contact', contactId, '--ttl', '7200').trim().split('\n')[0].trim();
  return { apiKey, jwt, siteKey: BENCH_SITE_KEY };
}
