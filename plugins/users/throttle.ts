/**
 * Failed-login throttling, per client address and per username, with its counters in the database
 * so that every instance agrees. Within `windowSeconds`, `maxFailuresPerIp` (or
 * `maxFailuresPerUsername`) failures block that address (username) for `lockoutSeconds`.
 */
import type { Knex } from 'knex';

export interface ThrottleOptions {
  enabled: boolean;
  windowSeconds: number;
  maxFailuresPerIp: number;
  maxFailuresPerUsername: number;
  lockoutSeconds: number;
}

/** A throttle subject: a client address or a username. */
export type Subject = { ip: string } | { username: string };

// A NUL byte cannot be stored in PostgreSQL text; it counts as U+FFFD in the key.
const keyOf = (s: Subject) =>
  'ip' in s ? `ip:${s.ip}` : `user:${s.username.toLowerCase().replace(/\0/g, '\uFFFD').slice(0, 290)}`;

export class Throttle {
  /** Told (with the writing handle) when a subject gets blocked. */
  private blocked: (db: Knex) => Promise<void> = async () => undefined;

  constructor(readonly options: ThrottleOptions) {}

  onBlock(fn: (db: Knex) => Promise<void>): void {
    this.blocked = fn;
  }

  /** Seconds until every given subject may try again; 0 when none is blocked. */
  async retryAfter(db: Knex, subjects: Subject[]): Promise<number> {
    const q = this.waitQuery(db, subjects);
    return q ? Math.max(0, Number((await q.first())?.wait ?? 0)) : 0;
  }

  /** The seconds to wait as a subquery (column `wait`), so a lookup can ask in the same round trip; null when off. */
  waitQuery(db: Knex, subjects: Subject[]): Knex.QueryBuilder | null {
    if (!this.options.enabled || !subjects.length) return null;
    return db('crm_login_failure')
      .whereIn('key', subjects.map(keyOf))
      .where('blocked_until', '>', db.fn.now())
      .select(db.raw('ceil(max(extract(epoch from (blocked_until - now())))) as wait'));
  }

  /** Counts one failure against each subject, blocking those over their limit. */
  async fail(db: Knex, subjects: Subject[]): Promise<void> {
    if (!this.options.enabled) return;
    const { windowSeconds, lockoutSeconds } = this.options;
    for (const subject of subjects) {
      const key = keyOf(subject);
      const max = 'ip' in subject ? this.options.maxFailuresPerIp : this.options.maxFailuresPerUsername;
      const { rows } = await db.raw(
        `insert into crm_login_failure (key, failures, window_start) values (?, 1, now())
         on conflict (key) do update set
           failures = case when crm_login_failure.window_start < now() - make_interval(secs => ?)
                           then 1 else crm_login_failure.failures + 1 end,
           window_start = case when crm_login_failure.window_start < now() - make_interval(secs => ?)
                               then now() else crm_login_failure.window_start end
         returning failures`,
        [key, windowSeconds, windowSeconds],
      );
      if (Number(rows[0].failures) >= max) {
        await db('crm_login_failure')
          .where({ key })
          .update({
            failures: 0,
            window_start: db.fn.now(),
            blocked_until: db.raw('now() + make_interval(secs => ?)', [lockoutSeconds]),
          });
        await this.blocked(db);
      }
    }
  }

  /** A success clears the username's counter (an address keeps its count: it may be guessing many users). */
  async succeed(db: Knex, username: string | undefined): Promise<void> {
    if (!this.options.enabled || !username) return;
    await db('crm_login_failure')
      .where({ key: keyOf({ username }) })
      .delete();
  }
}
