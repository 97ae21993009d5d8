/**
 * Recently authenticated bearer credentials (API keys, JWTs), so that a client repeating its
 * credential costs no authentication query. Entries are keyed by a hash of the credential and the
 * client address (a throttled address must not ride on another address's entry), live at most
 * `ttlSeconds` (and never past a JWT's expiry), and are all dropped on every instance whenever
 * users, roles, permissions or keys change, an address gets blocked, or a contact is deleted (the
 * `principals` topic of the change bus). `ttlSeconds: 0` turns the cache off.
 */
import { hash } from 'node:crypto';
import type { CredType } from './authenticator';
import type { UserRecord } from './store';

export interface PrincipalCacheOptions {
  ttlSeconds: number;
  maxEntries: number;
}

export interface CachedPrincipal {
  contactId: number;
  user: UserRecord | null;
  /** Shared between requests: readers copy before adding to it. */
  permissions: Set<string>;
  cred: Extract<CredType, 'api_key' | 'jwt'>;
  claims?: Record<string, unknown>;
}

/** The change-bus topic that empties every instance's cache. */
export const PRINCIPALS_TOPIC = 'principals';

export class PrincipalCache {
  private readonly entries = new Map<string, { value: CachedPrincipal; until: number }>();
  /** The anonymous role's permissions (every caller without a user holds them), on the same terms as entries. */
  private anonymous?: { value: Promise<Set<string>>; until: number };

  constructor(
    private readonly options: PrincipalCacheOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.options.ttlSeconds > 0 && this.options.maxEntries > 0;
  }

  /** The cache key: no credential is kept in memory as it was given. (One-shot `hash`: a Hash object per request cost ~2%.) */
  key(credential: string, address: string): string {
    return hash('sha256', `${credential}\0${address}`, 'base64');
  }

  get(key: string): CachedPrincipal | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** Remembers a principal until the TTL, or `notAfter` (epoch ms) when that comes first. */
  set(key: string, value: CachedPrincipal, notAfter = Infinity): void {
    if (!this.enabled) return;
    const until = Math.min(this.now() + this.options.ttlSeconds * 1000, notAfter);
    if (until <= this.now()) return;
    this.entries.delete(key);
    // Full: the oldest entry goes (a Map iterates in insertion order).
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }

  /**
   * The anonymous role's permissions, a copy for the caller to add to: loaded by `load` once per TTL rather than
   * for every request without a user (home page, public forms, APIv3 calls without credentials). Not kept when
   * the load fails, or when the cache is off.
   */
  async anonymousPermissions(load: () => Promise<Set<string>>): Promise<Set<string>> {
    if (!this.enabled) return load();
    let held = this.anonymous;
    if (!held || held.until <= this.now()) {
      held = { value: load(), until: this.now() + this.options.ttlSeconds * 1000 };
      this.anonymous = held;
      held.value.catch(() => {
        if (this.anonymous === held) this.anonymous = undefined;
      });
    }
    return new Set(await held.value);
  }

  clear(): void {
    this.entries.clear();
    this.anonymous = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}
