import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crm_contact', (t) => {
    t.increments('id');
    t.string('contact_type', 64);
    t.string('contact_sub_type', 255);
    for (const f of ['do_not_email', 'do_not_phone', 'do_not_mail', 'do_not_sms', 'do_not_trade', 'is_opt_out'])
      t.boolean(f).notNullable().defaultTo(false);
    t.string('legal_identifier', 32);
    t.string('external_identifier', 64).unique({ indexName: 'crm_contact_ui_external_identifier' });
    t.string('sort_name', 128);
    t.string('display_name', 128);
    t.string('nick_name', 128);
    t.string('legal_name', 128);
    t.text('image_URL');
    t.string('preferred_communication_method', 255);
    t.string('preferred_language', 5);
    t.string('hash', 32);
    t.string('api_key', 32);
    t.string('source', 255);
    t.string('first_name', 64);
    t.string('middle_name', 64);
    t.string('last_name', 64);
    t.integer('prefix_id');
    t.integer('suffix_id');
    t.string('formal_title', 64);
    t.integer('communication_style_id');
    t.integer('email_greeting_id');
    t.string('email_greeting_custom', 128);
    t.string('email_greeting_display', 255);
    t.integer('postal_greeting_id');
    t.string('postal_greeting_custom', 128);
    t.string('postal_greeting_display', 255);
    t.integer('addressee_id');
    t.string('addressee_custom', 128);
    t.string('addressee_display', 255);
    t.string('job_title', 255);
    t.integer('gender_id');
    t.date('birth_date');
    t.boolean('is_deceased').notNullable().defaultTo(false);
    t.date('deceased_date');
    t.string('household_name', 128);
    t.string('organization_name', 128);
    t.string('sic_code', 8);
    t.string('user_unique_id', 255);
    t.integer('employer_id').references('id').inTable('crm_contact').onDelete('SET NULL');
    t.boolean('is_deleted').notNullable().defaultTo(false);
    t.timestamp('created_date', { useTz: false }).defaultTo(knex.fn.now());
    t.timestamp('modified_date', { useTz: false }).defaultTo(knex.fn.now());
    t.index(['sort_name'], 'crm_contact_sort_name');
    t.index(['display_name'], 'crm_contact_display_name');
    t.index(['is_deleted', 'sort_name', 'id'], 'crm_contact_deleted_sort_name');
    t.index(['employer_id'], 'crm_contact_employer_id');
  });
  const owned = (t: Knex.CreateTableBuilder) => {
    t.increments('id');
    t.integer('contact_id').references('id').inTable('crm_contact').onDelete('CASCADE');
  };
  const location = (t: Knex.CreateTableBuilder) => {
    t.integer('location_type_id').references('id').inTable('crm_location_type').onDelete('SET NULL');
    t.boolean('is_primary').notNullable().defaultTo(false);
    t.boolean('is_billing').notNullable().defaultTo(false);
  };
  await knex.schema.createTable('crm_email', (t) => {
    owned(t);
    location(t);
    t.string('email', 254);
    t.integer('on_hold').notNullable().defaultTo(0);
    t.boolean('is_bulkmail').notNullable().defaultTo(false);
    t.timestamp('hold_date', { useTz: false });
    t.timestamp('reset_date', { useTz: false });
    t.text('signature_text');
    t.text('signature_html');
    t.index(['email'], 'crm_email_email');
    t.index(['contact_id', 'is_primary'], 'crm_email_contact_id');
  });
  await knex.schema.createTable('crm_phone', (t) => {
    owned(t);
    location(t);
    t.integer('mobile_provider_id');
    t.string('phone', 32);
    t.string('phone_ext', 16);
    t.string('phone_numeric', 32);
    t.integer('phone_type_id');
    t.index(['contact_id', 'is_primary'], 'crm_phone_contact_id');
    t.index(['phone_numeric'], 'crm_phone_phone_numeric');
  });
  await knex.schema.createTable('crm_address', (t) => {
    owned(t);
    location(t);
    t.string('street_address', 96);
    t.integer('street_number');
    for (const f of [
      'street_number_suffix',
      'street_number_predirectional',
      'street_name',
      'street_type',
      'street_number_postdirectional',
      'street_unit',
      'supplemental_address_1',
      'supplemental_address_2',
      'supplemental_address_3',
      'city',
      'postal_code_suffix',
      'postal_code',
      'timezone',
    ])
      t.string(f, 96);
    t.double('geo_code_1');
    t.double('geo_code_2');
    t.boolean('manual_geo_code').notNullable().defaultTo(false);
    t.string('name', 255);
    t.integer('master_id').references('id').inTable('crm_address').onDelete('SET NULL');
    t.index(['contact_id', 'is_primary'], 'crm_address_contact_id');
  });
  await knex.schema.createTable('crm_website', (t) => {
    owned(t);
    t.string('url', 2048);
    t.integer('website_type_id');
    t.index(['contact_id'], 'crm_website_contact_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['crm_website', 'crm_address', 'crm_phone', 'crm_email', 'crm_contact'])
    await knex.schema.dropTableIfExists(t);
}
