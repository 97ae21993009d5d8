/**
 * Written by hand (data, not an entity): the reference's daily "Update Membership Statuses" job, a Job row
 * calling Job.process_membership, when the jobs plugin is enabled (it migrates first: manifest `after`).
 */
import type { Knex } from 'knex';

export const MEMBERSHIP_JOB = {
  name: 'Update Membership Statuses',
  description: 'Recalculates membership statuses from their dates and the membership status rules',
  api_entity: 'Job',
  api_action: 'process_membership',
  run_frequency: 'Daily',
  parameters: null,
  is_active: true,
};

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('crm_job')) await knex('crm_job').insert(MEMBERSHIP_JOB);
}

export async function down(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('crm_job'))
    await knex('crm_job').where({ api_entity: 'Job', api_action: MEMBERSHIP_JOB.api_action }).delete();
}
