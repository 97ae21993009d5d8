/** The jobs this plugin ships, as Job rows (data; a deployer may change their frequency or disable them). */
import type { Knex } from 'knex';

export const SHIPPED_JOBS = [
  {
    name: 'Clean-up Temporary Data',
    description: 'Deletes expired sessions and OAuth authorization states',
    api_entity: 'Job',
    api_action: 'cleanup',
    run_frequency: 'Hourly',
    parameters: 'session=1\noauth_states=1',
    is_active: true,
  },
  {
    name: 'Keep OAuth tokens fresh',
    description: 'Refreshes system and contact OAuth tokens that expire within the configured window',
    api_entity: 'Job',
    api_action: 'refresh_oauth_tokens',
    run_frequency: 'Always',
    parameters: null,
    is_active: true,
  },
];

export async function up(knex: Knex): Promise<void> {
  await knex('crm_job').insert(SHIPPED_JOBS);
}

export async function down(knex: Knex): Promise<void> {
  await knex('crm_job')
    .whereIn(
      'api_action',
      SHIPPED_JOBS.map((job) => job.api_action),
    )
    .where('api_entity', 'Job')
    .delete();
}
