/**
 * The Job actions besides the generic ones: `execute` (one job now, or every due job), and the jobs this
 * plugin ships as API actions a Job row names: `cleanup` (expired sessions, OAuth states, old JobLog
 * lines) and `refresh_oauth_tokens` (tokens kept fresh ahead of use). Other plugins add jobs the same
 * way: an APIv3 action (e.g. `Job.process_mailing`) and a Job row in one of their migrations.
 */
import type { Knex } from 'knex';
import { KernelError, type ActionRegistrar } from '../../kernel';
import { envelope, stringifyLeaves } from '../api3';
import type { OAuthRefresher } from '../oauth-client';
import type { SessionStore } from '../users';
import type { JobRunner, RunOutcome } from './runner';

export interface JobActionDeps {
  runner: () => JobRunner;
  sessions: () => SessionStore;
  refresher: () => OAuthRefresher;
  db: () => Knex;
  windowSeconds: number;
  jobLogDays: number;
}

const outcomeRow = (outcome: RunOutcome) => ({
  id: outcome.id,
  name: outcome.name,
  result: outcome.ok ? 'Success' : 'Failure',
  ...(outcome.ok ? {} : { details: outcome.result }),
});

const single = (values: Record<string, unknown>) => envelope([stringifyLeaves(values) as Record<string, unknown>]);

export function defineJobActions(actions: ActionRegistrar, deps: JobActionDeps): void {
  actions.define({
    version: 3,
    entity: 'Job',
    action: 'execute',
    description: 'Runs one job now (`id` or `name`), or every due job when neither is given; every run goes to JobLog',
    params: {
      type: 'object',
      properties: { id: { type: ['integer', 'string'], pattern: '^[0-9]+$' }, name: { type: 'string', minLength: 1 } },
    },
    permission: 'administer CRM',
    handler: async (params) => {
      const runner = deps.runner();
      const { id, name } = params as { id?: number | string; name?: string };
      if (id === undefined && name === undefined) return envelope((await runner.runDue()).map(outcomeRow));
      const db = deps.db();
      const query = db('crm_job').select('id');
      if (id !== undefined) query.where('id', Number(id));
      if (name !== undefined) query.where('name', name);
      const rows = (await query) as Array<{ id: number }>;
      if (rows.length !== 1)
        throw new KernelError('E_INVALID_PARAMS', `Expected one Job but found ${rows.length}`, {
          details: { error_field: id !== undefined ? 'id' : 'name' },
        });
      const outcome = await runner.run(Number(rows[0].id), 'execute');
      return envelope([outcomeRow(outcome)]);
    },
  });

  actions.define({
    version: 3,
    entity: 'Job',
    action: 'cleanup',
    description:
      'Deletes expired sessions and OAuth authorization states, and (jobLog) JobLog lines older than the retention',
    params: {
      type: 'object',
      properties: {
        session: { type: ['boolean', 'integer', 'string'], default: true },
        oauth_states: { type: ['boolean', 'integer', 'string'], default: true },
        jobLog: { type: ['boolean', 'integer', 'string'], default: false },
      },
    },
    permission: 'administer CRM',
    handler: async (params) => {
      const on = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';
      const db = deps.db();
      const p = params as Record<string, unknown>;
      const sessions = on(p.session) ? await deps.sessions().purgeExpired(db) : 0;
      const states = on(p.oauth_states) ? await deps.refresher().purgeStates(db) : 0;
      const logs = on(p.jobLog)
        ? await db('crm_job_log')
            .where('run_time', '<', db.raw('localtimestamp - make_interval(days => ?)', [deps.jobLogDays]))
            .delete()
            .returning('id')
            .then((gone) => gone.length)
        : 0;
      return single({ sessions_deleted: sessions, oauth_states_deleted: states, job_log_deleted: logs });
    },
  });

  actions.define({
    version: 3,
    entity: 'Job',
    action: 'refresh_oauth_tokens',
    description:
      'Refreshes the system and contact OAuth tokens that expire within the window (seconds; default from the config); ' +
      'fires oauth.refreshFailed / oauth.refreshRecovered',
    params: { type: 'object', properties: { window: { type: ['integer', 'string'], pattern: '^[0-9]+$' } } },
    permission: 'administer CRM',
    handler: async (params) => {
      const { window } = params as { window?: number | string };
      const seconds = window === undefined ? deps.windowSeconds : Number(window);
      const result = await deps.refresher().keepFresh(deps.db(), seconds);
      return single({ ...result });
    },
  });
}
