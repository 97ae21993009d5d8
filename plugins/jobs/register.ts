/**
 * jobs: Job and JobLog, the runner (a tick every `intervalSeconds` on every instance; each due run
 * claimed once across them, queued through pg-boss on PostgreSQL or run in-process on the embedded
 * database), `Job.execute`, the shipped jobs, the OAuth refresh webhook and `crm job`.
 */
import type { Knex } from 'knex';
import { definePlugin, type Api } from '../../kernel';
import { cliCommands, engineOf } from '../../host';
import {
  oauthRefreshFailed,
  oauthRefreshRecovered,
  type OAuthRefresher,
  type TokenRefreshEvent,
} from '../oauth-client';
import type { SessionStore } from '../users';
import { defineJobActions } from './actions';
import { jobCliCommands } from './cli';
import { BossQueue, LocalQueue, type JobQueue } from './queue';
import { JobRunner } from './runner';
import { deliver } from './webhook';

export interface JobsOptions {
  intervalSeconds: number;
  autoStart: boolean;
  queue: 'auto' | 'local';
  bossSchema?: string;
  pollingIntervalSeconds: number;
  oauthRefreshWindowSeconds: number;
  jobLogRetentionDays: number;
  webhookUrl?: string;
  webhookSecret?: string;
  webhookTimeoutMs: number;
}

export default definePlugin<JobsOptions>(
  ({ config, serviceConfig, services, actions, hooks, log, onReady, onClose }) => {
    const db = () => services.resolve<Knex>('db');
    let runner: JobRunner | undefined;
    const getRunner = () => {
      if (runner) return runner;
      const { url, schema } = serviceConfig.database;
      const onPostgres = Boolean(url) && engineOf(db()) === 'postgresql';
      const queue: JobQueue =
        onPostgres && config.queue === 'auto'
          ? new BossQueue(
              {
                url: url!,
                // Beside the service's own schema (tenants and test runs stay apart), or `pgboss`.
                schema: config.bossSchema ?? (schema ? `${schema}_pgboss` : 'pgboss'),
                pollingIntervalSeconds: config.pollingIntervalSeconds,
                expireInSeconds: Math.max(60, config.intervalSeconds * 10),
              },
              log,
            )
          : new LocalQueue();
      runner = new JobRunner({
        db,
        api: () => services.resolve<Api>('api'),
        queue,
        log,
        intervalSeconds: config.intervalSeconds,
      });
      return runner;
    };
    services.singleton('jobRunner', () => getRunner());

    defineJobActions(actions, {
      runner: getRunner,
      db,
      sessions: () => services.resolve<SessionStore>('sessions'),
      refresher: () => services.resolve<OAuthRefresher>('oauthRefresher'),
      windowSeconds: config.oauthRefreshWindowSeconds,
      jobLogDays: config.jobLogRetentionDays,
    });

    const notify = (event: string) => async (payload: TokenRefreshEvent) => {
      log.warn({ event, storage: payload.storage, id: payload.id, error: payload.error }, 'OAuth token refresh event');
      if (config.webhookUrl)
        await deliver(
          { url: config.webhookUrl, secret: config.webhookSecret, timeoutMs: config.webhookTimeoutMs },
          event,
          { token: payload },
          log,
        );
    };
    hooks.tap(oauthRefreshFailed, notify('oauth.refreshFailed'));
    hooks.tap(oauthRefreshRecovered, notify('oauth.refreshRecovered'));
    hooks.tap(cliCommands, () => jobCliCommands());

    onReady(() => {
      if (config.autoStart) getRunner().startTimer();
    });
    onClose(async () => {
      await runner?.stop();
    });
  },
);
