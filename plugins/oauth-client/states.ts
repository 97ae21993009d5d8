/**
 * Authorization-code states (`crm_oauth_state`): created when a flow starts, claimed by the first
 * browser opening a sessionless start link, consumed once by the return; and the landing URL rules
 * (own origin or an allow-listed prefix: no open redirect). Every function takes the database handle.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { sameHash, sha256 } from './hashes';
import type { Storage } from './permissions';

export interface StateData {
  clientId: number;
  storage: Storage;
  tag: string | null;
  scopes: string[];
  landingUrl: string | null;
  codeVerifier: string;
  redirectUri: string;
  providerUrl: string;
  /** Contact of the initiator (the "caller's contact" when the browser returns without a session). */
  contactId: number | null;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `CC_` + 29 random letters and digits (the reference's state id format). */
export function newStateId(): string {
  let s = 'CC_';
  for (let i = 0; i < 29; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

export function stateError(): KernelError {
  return new KernelError('E_OAUTH_STATE', 'OAuth: Received invalid or expired state');
}

/** Where a landing URL may point: the service's own origin, or one of the allowed prefixes. */
export interface LandingRules {
  publicUrl: string;
  landingAllow: string[];
}

export async function createState(
  db: Knex,
  id: string,
  data: StateData,
  binding: { sessionHash: string | null },
  ttl: number,
): Promise<string> {
  await db('crm_oauth_state').insert({
    id,
    session_hash: binding.sessionHash,
    cookie_hash: null,
    data: JSON.stringify(data),
    expires_at: db.raw('now() + make_interval(secs => ?)', [ttl]),
  });
  // Housekeeping: expired states go as new ones come.
  await db('crm_oauth_state').where('expires_at', '<', db.fn.now()).delete();
  return id;
}

/**
 * An unbound (sessionless) state is claimed by the first browser opening its start link: that
 * browser gets a random cookie, the state keeps its hash. Returns the cookie value and provider URL.
 */
export async function claimState(db: Knex, id: string): Promise<{ cookie: string; providerUrl: string }> {
  // Checked before any query: a NUL byte (or anything not a state id) must not reach PostgreSQL.
  if (!/^CC_[A-Za-z0-9]{1,60}$/.test(id)) throw stateError();
  return db.transaction(async (trx) => {
    const row = await trx('crm_oauth_state')
      .where({ id })
      .andWhere('expires_at', '>', trx.fn.now())
      .forUpdate()
      .first();
    if (!row || row.session_hash || row.cookie_hash) throw stateError();
    const cookie = randomBytes(24).toString('base64url');
    await trx('crm_oauth_state')
      .where({ id })
      .update({ cookie_hash: sha256(cookie) });
    const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as StateData;
    return { cookie, providerUrl: data.providerUrl };
  });
}

/** Loads and deletes a state (single use). Unknown, expired, or bound to another session/browser → error. */
export async function consumeState(
  db: Knex,
  id: unknown,
  binding: { sessionHash: string | null; cookie: string | null },
): Promise<StateData> {
  if (typeof id !== 'string' || !/^CC_[A-Za-z0-9]{1,60}$/.test(id)) throw stateError();
  const data = await db.transaction(async (trx) => {
    const row = await trx('crm_oauth_state')
      .where({ id })
      .forUpdate()
      .first(['*', trx.raw('expires_at > now() as live')]);
    if (!row) return null;
    if (!row.live) {
      // Expired: gone for good (committed), then refused.
      await trx('crm_oauth_state').where({ id }).delete();
      return null;
    }
    const ok = row.session_hash
      ? sameHash(row.session_hash, binding.sessionHash)
      : row.cookie_hash
        ? sameHash(row.cookie_hash, binding.cookie ? sha256(binding.cookie) : null)
        : false;
    // Another session or browser: refused, and the state stays for its owner.
    if (!ok) return null;
    await trx('crm_oauth_state').where({ id }).delete();
    return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as StateData;
  });
  if (!data) throw stateError();
  return data;
}

/** A landing URL on the service's own origin or an allowed prefix, as an absolute URL; else an error (no open redirect). */
export function landingUrl(raw: unknown, allowed: LandingRules): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const refuse = () =>
    new KernelError('E_OAUTH_LANDING', 'Cannot initiate OAuth. Unsupported landing URL.', {
      details: { landingUrl: String(raw).slice(0, 200) },
    });
  if (typeof raw !== 'string' || /[\s\\]/.test(raw) || raw.startsWith('//')) throw refuse();
  let url: URL;
  try {
    url = new URL(raw, allowed.publicUrl);
  } catch {
    throw refuse();
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse();
  if (url.username || url.password) throw refuse();
  const own = new URL(allowed.publicUrl).origin;
  if (url.origin === own) return url.href;
  for (const prefix of allowed.landingAllow) {
    let allowedUrl: URL;
    try {
      allowedUrl = new URL(prefix);
    } catch {
      continue;
    }
    if (allowedUrl.origin === url.origin && url.pathname.startsWith(allowedUrl.pathname)) return url.href;
  }
  throw refuse();
}
