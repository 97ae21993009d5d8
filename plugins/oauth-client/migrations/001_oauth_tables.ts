/**
 * OAuth storage: clients, system / contact / session tokens, authorization states (shared by every
 * instance, single-use, with a TTL) and a minimal mail-account table for the mail-setup flow.
 * `expires` is absolute unix seconds (integer). JSON columns are jsonb; `scopes` is text serialized
 * with the \x01 separator (entity-core's `serialize`), so the API returns an array and can filter it.
 */
import type { Knex } from 'knex';

function tokenColumns(knex: Knex, t: Knex.CreateTableBuilder): void {
  t.increments('id');
  t.string('tag', 128).index();
  t.integer('client_id').references('id').inTable('crm_oauth_client').onDelete('CASCADE');
  t.string('grant_type', 31);
  t.text('scopes');
  t.string('token_type', 128);
  t.text('access_token');
  t.integer('expires').defaultTo(0);
  t.text('refresh_token');
  t.string('resource_owner_name', 128);
  t.jsonb('resource_owner');
  t.jsonb('error');
  t.jsonb('raw');
  t.timestamp('created_date', { useTz: false }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('modified_date', { useTz: false }).notNullable().defaultTo(knex.fn.now());
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crm_oauth_client', (t) => {
    t.increments('id');
    t.string('provider', 128).notNullable().index();
    t.string('guid', 128).notNullable().index();
    t.string('tenant', 128);
    t.text('secret');
    t.jsonb('options');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_date', { useTz: false }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('modified_date', { useTz: false }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('crm_oauth_systoken', (t) => tokenColumns(knex, t));
  await knex.schema.createTable('crm_oauth_contact_token', (t) => {
    tokenColumns(knex, t);
    t.integer('contact_id').references('id').inTable('crm_contact').onDelete('CASCADE').index();
  });
  await knex.schema.createTable('crm_oauth_session_token', (t) => {
    tokenColumns(knex, t);
    // The SHA-256 of the session id (crm_session.id_hash): ending the session removes its tokens.
    t.string('session_hash', 64).notNullable().references('id_hash').inTable('crm_session').onDelete('CASCADE').index();
  });
  await knex.schema.createTable('crm_oauth_state', (t) => {
    t.string('id', 64).primary();
    // Bound to a session (SHA-256 of its id), or to a browser cookie (SHA-256 of its nonce); both null = CLI / server code.
    t.string('session_hash', 64);
    t.string('cookie_hash', 64);
    t.jsonb('data').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
  });
  await knex.schema.createTable('crm_mail_settings', (t) => {
    t.increments('id');
    t.string('name', 255);
    t.string('domain', 255);
    t.string('localpart', 255);
    t.string('return_path', 255);
    t.string('protocol', 32);
    t.string('server', 255);
    t.integer('port');
    t.string('username', 255);
    t.text('password');
    t.boolean('is_ssl').notNullable().defaultTo(false);
    t.string('auth', 32);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_date', { useTz: false }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'crm_mail_settings',
    'crm_oauth_state',
    'crm_oauth_session_token',
    'crm_oauth_contact_token',
    'crm_oauth_systoken',
    'crm_oauth_client',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
}
