/**
 * The database side of the run: a fingerprint of the data tables (to catch a write over GET), and the
 * integrity check afterwards (no orphans, no half-written rows).
 */
import type { Knex } from 'knex';

/** Tables a read may legitimately write: sessions, login throttling, OAuth state, key bookkeeping. */
const BOOKKEEPING = /session|login_failure|oauth_state|secret|migrat|lock|api_key/;

let tables: Promise<string[]> | undefined;

function dataTables(db: Knex): Promise<string[]> {
  tables ??= db
    .raw(
      `select table_name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
    )
    .then((r: { rows: Array<{ table_name: string }> }) =>
      r.rows.map((x) => x.table_name).filter((t) => !BOOKKEEPING.test(t)),
    );
  return tables;
}

/** One text that changes when any row of any data table is inserted, updated or deleted. */
export async function snapshot(db: Knex): Promise<string> {
  const names = await dataTables(db);
  const parts = names.map(
    () =>
      `select ?::text as t, count(*) as n, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as h from ?? x`,
  );
  const r = await db.raw(
    parts.join(' union all '),
    names.flatMap((t) => [t, t]),
  );
  return (r.rows as Array<{ t: string; n: string; h: string }>)
    .map((x) => `${x.t}:${x.n}:${x.h}`)
    .sort()
    .join('|');
}

/** Rows pointing at a missing contact, and contacts without their mandatory values. */
export async function integrityProblems(db: Knex): Promise<string[]> {
  const problems: string[] = [];
  const cols = await db.raw(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_name = 'contact_id'`,
  );
  for (const { table_name } of cols.rows as Array<{ table_name: string }>) {
    const orphans = await db.raw(
      `select count(*) as n from ?? t where t.contact_id is not null
         and not exists (select 1 from crm_contact c where c.id = t.contact_id)`,
      [table_name],
    );
    if (Number(orphans.rows[0].n))
      problems.push(`${orphans.rows[0].n} row(s) of ${table_name} point at a missing contact`);
  }
  const half = await db.raw(
    `select count(*) as n from crm_contact where contact_type is null or display_name is null or created_date is null`,
  );
  if (Number(half.rows[0].n)) problems.push(`${half.rows[0].n} contact(s) without type, display name or creation date`);
  const emails = await db.raw(`select count(*) as n from crm_email where email is null or contact_id is null`);
  if (Number(emails.rows[0].n)) problems.push(`${emails.rows[0].n} email(s) without address or contact`);
  const users = await db.raw(
    `select count(*) as n from crm_user u where not exists (select 1 from crm_contact c where c.id = u.contact_id)`,
  );
  if (Number(users.rows[0].n)) problems.push(`${users.rows[0].n} user(s) without a contact`);
  return problems;
}
