/**
 * Log tables and triggers (the reference's detailed logging, CRM/Logging/Schema): each logged table `t` gets
 * `log_t` with the same columns (no constraints, no defaults) plus log_date, log_conn_id, log_user_id and
 * log_action, seeded with the current rows as 'Initialization', and an AFTER row trigger that copies every
 * inserted, updated or deleted row into it. Names come from the entity registry and the database catalogue
 * only, and are checked before they reach DDL; secret columns are stored as a digest of the stored text.
 */
import type { Knex } from 'knex';
import type { EntityRegistry } from '../entity-core';

export const LOG_COLUMNS = ['log_date', 'log_conn_id', 'log_user_id', 'log_action'];
const TRIGGER = 'crm_audit_log';
const FUNCTION = 'crm_audit_row';
/** Serialises log-table DDL across instances (two instances starting at once both sync). */
const LOCK_KEY = 7_170_014;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A checked identifier, quoted (names come from metadata and the catalogue, never from callers). */
export function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`audit-log: unexpected identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

export const logTableOf = (table: string) => `log_${table}`;

/** Tables not logged, as in the reference: logs, caches, queues, mailing events. */
const SKIPPED = [/_log($|_)/, /_cache$/, /^crm_queue/, /^crm_mailing_event_/, /^log_/];

/** The tables of every entity with a table of its own (custom-value tables included), logged or not. */
export function entityTables(registry: EntityRegistry): Map<string, string> {
  const tables = new Map<string, string>();
  for (const name of registry.names()) {
    const table = registry.get(name).table;
    if (table && IDENT.test(table) && !SKIPPED.some((pattern) => pattern.test(table))) tables.set(table, name);
  }
  return tables;
}

/** Columns of the registry's secret and encrypted fields of the entity stored in `table`. */
export function secretColumns(registry: EntityRegistry, table: string): string[] {
  const entity = registry.byTable(table);
  if (!entity) return [];
  return entity.fields.filter((field) => field.secret || field.encrypted).map((field) => field.column ?? field.name);
}

type Columns = Map<string, string>;

/** Base tables of the current schema, and each one's columns with their SQL types. */
async function catalogue(db: Knex): Promise<Map<string, Columns>> {
  const rows = (
    await db.raw(
      `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = current_schema() and c.relkind in ('r', 'p')
        order by c.relname, a.attnum`,
    )
  ).rows as Array<{ table_name: string; column_name: string; type: string }>;
  const out = new Map<string, Columns>();
  for (const row of rows) {
    if (!out.has(row.table_name)) out.set(row.table_name, new Map());
    out.get(row.table_name)!.set(row.column_name, row.type);
  }
  return out;
}

/** The trigger function (one for every table): the changed row as JSON, into the table's log table. */
async function ensureFunction(db: Knex): Promise<void> {
  await db.raw(`create or replace function ${FUNCTION}() returns trigger language plpgsql as $body$
declare
  rec jsonb;
  act text;
  col text;
begin
  if TG_OP = 'DELETE' then
    rec := to_jsonb(OLD); act := 'Delete';
  elsif TG_OP = 'INSERT' then
    rec := to_jsonb(NEW); act := 'Insert';
  else
    rec := to_jsonb(NEW); act := 'Update';
    if rec = to_jsonb(OLD) then return null; end if;
  end if;
  for i in 0 .. TG_NARGS - 1 loop
    col := TG_ARGV[i];
    if rec ->> col is not null then rec := jsonb_set(rec, array[col], to_jsonb(md5(rec ->> col))); end if;
  end loop;
  rec := rec || jsonb_build_object(
    'log_date', clock_timestamp()::timestamp,
    'log_conn_id', txid_current()::text,
    'log_user_id', nullif(current_setting('crm.contact_id', true), '')::integer,
    'log_action', act);
  execute format('insert into %I.%I select * from jsonb_populate_record(null::%I.%I, $1)',
    TG_TABLE_SCHEMA, 'log_' || TG_TABLE_NAME, TG_TABLE_SCHEMA, 'log_' || TG_TABLE_NAME) using rec;
  return null;
end
$body$`);
}

/** Creates the log table of `table`, seeded with its rows as 'Initialization'. */
async function createLogTable(db: Knex, table: string, columns: Columns, secrets: string[]): Promise<void> {
  const log = logTableOf(table);
  const defs = [...columns].map(([name, type]) => `${ident(name)} ${secrets.includes(name) ? 'text' : type}`);
  await db.raw(
    `create table ${ident(log)} (${defs.join(', ')}, log_date timestamp default localtimestamp, ` +
      `log_conn_id varchar(64), log_user_id integer, log_action varchar(16) ` +
      `check (log_action in ('Initialization', 'Insert', 'Update', 'Delete')))`,
  );
  if (columns.has('id')) await db.raw(`create index ${ident(`${log}_id`)} on ${ident(log)} (id, log_date)`);
  await db.raw(`create index ${ident(`${log}_conn`)} on ${ident(log)} (log_conn_id)`);
  const names = [...columns.keys()];
  const values = names.map((name) => (secrets.includes(name) ? `md5(${ident(name)}::text)` : ident(name)));
  await db.raw(
    `insert into ${ident(log)} (${names.map(ident).join(', ')}, log_action) ` +
      `select ${values.join(', ')}, 'Initialization' from ${ident(table)}`,
  );
}

/** Adds the columns `table` gained to its log table; a changed type follows (as text when values do not convert). */
async function alterLogTable(db: Knex, table: string, columns: Columns, logged: Columns, secrets: string[]) {
  const log = logTableOf(table);
  let changed = false;
  for (const [name, type] of columns) {
    const wanted = secrets.includes(name) ? 'text' : type;
    const have = logged.get(name);
    if (have === wanted) continue;
    changed = true;
    if (!have) {
      await db.raw(`alter table ${ident(log)} add column ${ident(name)} ${wanted}`);
      continue;
    }
    const alter = (on: Knex, to: string) =>
      on.raw(`alter table ${ident(log)} alter column ${ident(name)} type ${to} using ${ident(name)}::text::${to}`);
    try {
      // In a savepoint: stored values that do not convert leave the column as text instead.
      await db.transaction((savepoint) => alter(savepoint, wanted));
    } catch {
      if (have !== 'text') await alter(db, 'text');
    }
  }
  return changed;
}

/** Each table's audit trigger, as the database prints its definition. */
async function triggers(db: Knex): Promise<Map<string, string>> {
  const rows = (
    await db.raw(
      `select c.relname as table_name, pg_get_triggerdef(t.oid) as definition from pg_trigger t
         join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and t.tgname = ?`,
      [TRIGGER],
    )
  ).rows as Array<{ table_name: string; definition: string }>;
  return new Map(rows.map((row) => [row.table_name, row.definition]));
}

/** (Re)creates a table's trigger; unless forced, a trigger already passing the same secret columns stays. */
async function createTrigger(db: Knex, table: string, secrets: string[], existing?: string): Promise<boolean> {
  const args = secrets.map((name) => `'${ident(name).slice(1, -1)}'`).join(', ');
  if (existing?.endsWith(`${FUNCTION}(${args})`)) return false;
  await db.raw(`drop trigger if exists ${TRIGGER} on ${ident(table)}`);
  await db.raw(
    `create trigger ${TRIGGER} after insert or update or delete on ${ident(table)} ` +
      `for each row execute function ${FUNCTION}(${args})`,
  );
  return true;
}

export interface SyncOptions {
  /** Only these tables (default: every logged entity table). */
  tables?: string[];
  /** Create missing log tables only: no column changes, no triggers (System.createmissinglogtables). */
  missingOnly?: boolean;
  /** Recreate every trigger (System.updatelogtables); otherwise only missing or outdated ones. */
  recreate?: boolean;
}

/**
 * Brings log tables in step with the tables (created, columns added or changed) and (re)creates the
 * triggers; answers the number of log tables created or changed. Run in the caller's transaction.
 */
export async function syncLogTables(db: Knex, registry: EntityRegistry, options: SyncOptions = {}): Promise<number> {
  await db.raw('select pg_advisory_xact_lock(?)', [LOCK_KEY]);
  const known = entityTables(registry);
  const wanted = (options.tables ?? [...known.keys()]).filter(
    (table) => IDENT.test(table) && !SKIPPED.some((pattern) => pattern.test(table)),
  );
  const tables = await catalogue(db);
  if (!options.missingOnly) await ensureFunction(db);
  const current = options.recreate ? new Map<string, string>() : await triggers(db);
  let count = 0;
  for (const table of wanted) {
    const columns = tables.get(table);
    if (!columns) continue;
    const secrets = secretColumns(registry, table);
    const logged = tables.get(logTableOf(table));
    if (!logged) {
      await createLogTable(db, table, columns, secrets);
      count++;
    } else if (!options.missingOnly && (await alterLogTable(db, table, columns, logged, secrets))) count++;
    if (!options.missingOnly) await createTrigger(db, table, secrets, current.get(table));
  }
  return count;
}

/** Drops every audit trigger; the log tables stay (as the reference keeps them). */
export async function dropTriggers(db: Knex): Promise<number> {
  const tables = [...(await triggers(db)).keys()];
  for (const table of tables) await db.raw(`drop trigger if exists ${TRIGGER} on ${ident(table)}`);
  return tables.length;
}

/** The log tables that exist, by the table they log. */
export async function existingLogTables(db: Knex): Promise<Set<string>> {
  const tables = await catalogue(db);
  return new Set([...tables.keys()].filter((name) => name.startsWith('log_')).map((name) => name.slice(4)));
}
