/**
 * Indexes for LIKE searches: the store compiles LIKE to `lower(col) LIKE lower(?)` (case-insensitive,
 * as the reference's MySQL), which these `text_pattern_ops` expression indexes serve for prefix
 * patterns (`Smi%`) whatever the database collation.
 */
import type { Knex } from 'knex';

const INDEXES: Array<[table: string, column: string]> = [
  ['crm_contact', 'sort_name'],
  ['crm_contact', 'display_name'],
  ['crm_contact', 'first_name'],
  ['crm_contact', 'last_name'],
  ['crm_contact', 'nick_name'],
  ['crm_contact', 'organization_name'],
  ['crm_contact', 'household_name'],
  ['crm_email', 'email'],
];

const name = (table: string, column: string) => `${table}_lower_${column}`;

export async function up(knex: Knex): Promise<void> {
  for (const [table, column] of INDEXES)
    await knex.raw(`create index ${name(table, column)} on ${table} (lower(${column}) text_pattern_ops)`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of INDEXES) await knex.raw(`drop index if exists ${name(table, column)}`);
}
