/**
 * Keeping tokens fresh ahead of use (the `oauthRefresher` service, run by a scheduled job): every
 * system and contact token with a refresh token that expires within the window is refreshed under
 * its row lock (refresh.ts: one provider call across instances). A healthy token that fails fires
 * `oauth.refreshFailed`; a failing token that works again fires `oauth.refreshRecovered`.
 */
import type { Knex } from 'knex';
import { isKernelError, type Logger } from '../../kernel';
import type { TokenRefreshEvent } from './hooks';
import { refreshOne } from './refresh';
import type { OAuthStore } from './store';

export interface KeepFreshResult {
  checked: number;
  refreshed: number;
  failed: number;
  recovered: number;
}

type Notify = (kind: 'failed' | 'recovered', event: TokenRefreshEvent) => Promise<void>;

const STORAGES = ['OAuthSysToken', 'OAuthContactToken'] as const;

export class OAuthRefresher {
  constructor(
    private readonly store: () => OAuthStore,
    private readonly notify: Notify,
    private readonly log: Logger,
  ) {}

  /** Deletes expired authorization-code states (a scheduled job's clean-up); returns how many went. */
  async purgeStates(db: Knex): Promise<number> {
    const gone = await db('crm_oauth_state').where('expires_at', '<', db.fn.now()).delete().returning('id');
    return gone.length;
  }

  /** Refreshes every token expiring within `windowSeconds` (or without a known expiry). */
  async keepFresh(db: Knex, windowSeconds: number): Promise<KeepFreshResult> {
    const store = this.store();
    const out: KeepFreshResult = { checked: 0, refreshed: 0, failed: 0, recovered: 0 };
    const horizon = store.now() + windowSeconds;
    for (const storage of STORAGES) {
      const table = store.entity(storage).table;
      const columns = ['id', 'client_id', 'tag', 'error', ...(storage === 'OAuthContactToken' ? ['contact_id'] : [])];
      const due = (await db(table)
        .whereNotNull('refresh_token')
        .whereNotNull('client_id')
        .where((q) => q.whereNull('expires').orWhere('expires', '<', horizon))
        .orderBy('id')
        .select(columns)) as Array<Record<string, unknown>>;
      for (const row of due) {
        out.checked++;
        const event: TokenRefreshEvent = {
          storage,
          id: Number(row.id),
          clientId: row.client_id === null ? null : Number(row.client_id),
          tag: (row.tag as string | null) ?? null,
          contactId: row.contact_id === undefined || row.contact_id === null ? null : Number(row.contact_id),
        };
        const wasFailing = row.error !== null && row.error !== undefined;
        const failure = await this.refresh(db, storage, event.id, windowSeconds);
        if (failure) {
          out.failed++;
          if (!wasFailing) await this.notify('failed', { ...event, ...failure });
        } else {
          out.refreshed++;
          if (wasFailing) {
            out.recovered++;
            await this.notify('recovered', event);
          }
        }
      }
    }
    return out;
  }

  /** One token: undefined when refreshed (or fresh already), else the error the provider gave. */
  private async refresh(
    db: Knex,
    storage: (typeof STORAGES)[number],
    id: number,
    windowSeconds: number,
  ): Promise<{ error: string; errorDescription: string } | undefined> {
    try {
      const res = await refreshOne(this.store(), db, storage, id, windowSeconds);
      if (!res.error) return undefined;
      const details = (res.error.details ?? {}) as Record<string, unknown>;
      return { error: String(details.error ?? res.error.code), errorDescription: res.error.message };
    } catch (err) {
      const code = isKernelError(err) ? err.code : 'E_INTERNAL';
      this.log.warn({ storage, id, code }, 'OAuth token could not be refreshed');
      return { error: code, errorDescription: err instanceof Error ? err.message : String(err) };
    }
  }
}
