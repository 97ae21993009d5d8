/**
 * The settings store: one row per setting that differs from its default, per domain (this service is domain
 * 1) and, for contact settings (4.7), per contact. Values are JSON. A contact deleted for good takes its
 * settings with it.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crm_setting', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.jsonb('value');
    t.integer('domain_id').notNullable().defaultTo(1);
    t.integer('contact_id').references('id').inTable('crm_contact').onDelete('CASCADE');
    t.timestamp('created_date', { useTz: false }).notNullable().defaultTo(knex.fn.now());
    t.integer('created_id');
  });
  // One value per name, domain and contact (the domain value: contact null).
  await knex.raw(
    'create unique index crm_setting_name_scope on crm_setting (name, domain_id, coalesce(contact_id, 0))',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('crm_setting');
}
