/**
 * Identity tables: users linked to contacts, roles and their permissions, hashed API keys,
 * generated secrets (site key, JWT signing key, session secret), cookie sessions and the
 * failed-login counters. Everything several instances must agree on lives here.
 *
 * `contact_id` points at `crm_contact` (entity-contact migrates first): a user's contact cannot be
 * deleted for good while the user exists; its keys and sessions go with it.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crm_user', (t) => {
    t.increments('id');
    t.string('username', 128).notNullable();
    t.text('password_hash');
    t.integer('contact_id').notNullable().unique().references('id').inTable('crm_contact').onDelete('RESTRICT');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index crm_user_username_lower on crm_user (lower(username))');

  await knex.schema.createTable('crm_role', (t) => {
    t.increments('id');
    t.string('name', 64).notNullable().unique();
    t.string('label', 255).notNullable();
    t.boolean('is_reserved').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('crm_role_permission', (t) => {
    t.integer('role_id').notNullable().references('id').inTable('crm_role').onDelete('CASCADE');
    t.string('permission', 255).notNullable();
    t.primary(['role_id', 'permission']);
  });
  await knex.schema.createTable('crm_user_role', (t) => {
    t.integer('user_id').notNullable().references('id').inTable('crm_user').onDelete('CASCADE');
    t.integer('role_id').notNullable().references('id').inTable('crm_role').onDelete('CASCADE');
    t.primary(['user_id', 'role_id']);
  });

  await knex.schema.createTable('crm_api_key', (t) => {
    t.increments('id');
    t.integer('contact_id').notNullable().index().references('id').inTable('crm_contact').onDelete('CASCADE');
    // SHA-256 (hex) of the key; the key itself is shown once and never stored.
    t.string('key_hash', 64).notNullable().unique();
    // First characters of the key, so an operator can tell keys apart in `crm key list`.
    t.string('prefix', 16).notNullable();
    t.string('label', 255);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
  });

  await knex.schema.createTable('crm_secret', (t) => {
    t.string('name', 64).primary();
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('crm_session', (t) => {
    // SHA-256 (hex) of the session id; the id itself only travels in the signed cookie.
    t.string('id_hash', 64).primary();
    t.integer('contact_id').notNullable().references('id').inTable('crm_contact').onDelete('CASCADE');
    t.integer('user_id');
    t.jsonb('data').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable().index();
  });

  await knex.schema.createTable('crm_login_failure', (t) => {
    // `ip:<address>` or `user:<lower-case username>`
    t.string('key', 300).primary();
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('window_start', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('blocked_until', { useTz: true });
  });

  const roles = [
    { name: 'anonymous', label: 'Anonymous visitor', is_reserved: true },
    { name: 'authenticated', label: 'Any logged-in user', is_reserved: true },
    { name: 'administrator', label: 'Administrator', is_reserved: true },
  ];
  const ids = await knex('crm_role').insert(roles).returning(['id', 'name']);
  const id = (n: string) => ids.find((r: { name: string }) => r.name === n).id;
  await knex('crm_role_permission').insert([
    { role_id: id('authenticated'), permission: 'view my contact' },
    { role_id: id('authenticated'), permission: 'edit my contact' },
    { role_id: id('administrator'), permission: '*' },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'crm_login_failure',
    'crm_session',
    'crm_secret',
    'crm_api_key',
    'crm_user_role',
    'crm_role_permission',
    'crm_role',
    'crm_user',
  ]) {
    await knex.schema.dropTableIfExists(t);
  }
}
