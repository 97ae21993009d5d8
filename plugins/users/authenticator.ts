/**
 * The AuthX authenticator: turns a credential string (`Bearer <api key>`, `Bearer <jwt>`,
 * `Basic <base64(user:pass)>`) into a contact and user, then applies a flow's policy (allowed
 * credential types, user link mode, guards) in the reference's order, with its exact messages.
 * Shared by auth-authx (header, xheader, param, login flows) and auth-legacy-keys (legacyrest).
 * The credential types, policy and parsing it uses live in credentials.ts (re-exported here).
 */
import type { Knex } from 'knex';
import { holds } from '../../kernel';
import { safeEqual, verifyPassword } from './crypto';
import {
  INVALID,
  parseBasic,
  parseCredential,
  THROTTLED,
  type AuthOutcome,
  type CredType,
  type FlowPolicy,
  type Guard,
} from './credentials';
import { verifyJwt } from './jwt';
import type { Keyring } from './keyring';
import type { PrincipalCache } from './principal-cache';
import type { IdentityStore, UserRecord } from './store';
import type { Subject, Throttle } from './throttle';

export {
  INVALID,
  parseBasic,
  parseCredential,
  THROTTLED,
  type Authenticated,
  type AuthOutcome,
  type CredType,
  type FlowPolicy,
  type Guard,
  type UserMode,
} from './credentials';

type Found = {
  contactId: number;
  userId?: number;
  username?: string;
  cred: CredType;
  claims?: Record<string, unknown>;
};

/** A user record as the principal cache keeps it: the password hash is not needed there, so it is not kept. */
const withoutHash = (user: UserRecord | null): UserRecord | null => (user ? { ...user, password_hash: null } : null);

export class Authenticator {
  constructor(
    private readonly store: IdentityStore,
    private readonly keyring: Keyring,
    private readonly throttle: Throttle,
    private readonly cache?: PrincipalCache,
  ) {}

  async authenticate(
    db: Knex,
    req: { flow: string; credential: string; siteKey?: string; policy: FlowPolicy; ip: string },
  ): Promise<AuthOutcome> {
    const parsed = parseCredential(req.credential);
    const basic = parsed?.scheme === 'Basic' ? parseBasic(parsed.value) : null;
    const subjects: Subject[] = [{ ip: req.ip }, ...(basic ? [{ username: basic.username }] : [])];
    // The common case, a live API key, answers key, user, permissions and throttle in one round trip.
    const bearer = parsed?.scheme === 'Bearer' && parsed.value ? parsed.value : undefined;
    // A bearer credential this address used moments ago needs no query at all (see principal-cache.ts).
    const cacheKey = bearer && this.cache?.enabled ? this.cache.key(bearer, req.ip) : undefined;
    const cached = cacheKey ? this.cache!.get(cacheKey) : undefined;
    if (cached)
      return this.policy(
        db,
        req,
        { contactId: cached.contactId, cred: cached.cred, claims: cached.claims },
        cached.user,
        cached.permissions,
      );
    const hit = bearer
      ? await this.store.apiKeyPrincipal(db, bearer, this.throttle.waitQuery(db, subjects))
      : undefined;
    if (hit) {
      if (hit.wait > 0) return { reject: THROTTLED, retryAfter: hit.wait };
      if (cacheKey)
        this.cache!.set(cacheKey, {
          contactId: hit.contactId,
          user: withoutHash(hit.user),
          permissions: hit.permissions,
          cred: 'api_key',
        });
      return this.policy(db, req, { contactId: hit.contactId, cred: 'api_key' }, hit.user, hit.permissions);
    }
    // A bearer value that is no live key may be a JWT: verifying it needs no database.
    const jwt = bearer ? await verifyJwt(this.keyring, bearer) : null;
    if (jwt && 'contactId' in jwt) {
      const who = await this.store.contactPrincipal(db, jwt.contactId, this.throttle.waitQuery(db, subjects));
      if (who.wait > 0) return { reject: THROTTLED, retryAfter: who.wait };
      if (!(await this.store.contactExists(db, jwt.contactId)))
        return { reject: `Contact ID ${jwt.contactId} is invalid` };
      // Never past the token's own expiry.
      const exp = typeof jwt.claims.exp === 'number' ? jwt.claims.exp * 1000 : Infinity;
      if (cacheKey)
        this.cache!.set(
          cacheKey,
          {
            contactId: jwt.contactId,
            user: withoutHash(who.user),
            permissions: who.permissions,
            cred: 'jwt',
            claims: jwt.claims,
          },
          exp,
        );
      return this.policy(
        db,
        req,
        { contactId: jwt.contactId, cred: 'jwt', claims: jwt.claims },
        who.user,
        who.permissions,
      );
    }
    const wait = await this.throttle.retryAfter(db, subjects);
    if (wait > 0) return { reject: THROTTLED, retryAfter: wait };
    if (jwt && 'reject' in jwt) return jwt;

    const found = parsed ? await this.check(db, parsed, basic, bearer !== undefined) : null;
    if (!found || 'reject' in found) {
      if (!found) await this.throttle.fail(db, subjects);
      return { reject: found?.reject ?? INVALID };
    }
    // An API key's contact exists by its foreign key; a JWT names any id, so look it up.
    if (found.cred === 'jwt' && !(await this.store.contactExists(db, found.contactId)))
      return { reject: `Contact ID ${found.contactId} is invalid` };
    const user =
      found.userId !== undefined
        ? await this.store.findUserById(db, found.userId)
        : await this.store.findUserByContact(db, found.contactId);
    const outcome = await this.policy(db, req, found, user ?? null);
    if (basic && 'ok' in outcome) await this.throttle.succeed(db, basic.username);
    return outcome;
  }

  /** The flow's policy after a credential was recognised, in the reference's order and words. */
  private async policy(
    db: Knex,
    req: { flow: string; siteKey?: string; policy: FlowPolicy },
    found: Found,
    user: UserRecord | null,
    permissions?: Set<string>,
  ): Promise<AuthOutcome> {
    if (!req.policy.cred.includes(found.cred))
      return {
        reject: `Authentication type "${found.cred}" with flow "${req.flow}" is not allowed for this principal.`,
      };
    if (req.policy.user === 'require' && !user) return { reject: 'Cannot login. No matching user is available.' };
    if (!(await this.guardsPass(db, found.cred, user?.id ?? null, req.siteKey, req.policy.guards, permissions))) {
      return { reject: `Login not permitted. Must satisfy guard (${req.policy.guards.join(', ')}).` };
    }
    if (user && !user.is_active) return { reject: 'Cannot login. User is blocked.' };
    const linked = req.policy.user === 'ignore' ? null : (user?.id ?? null);
    // Loaded permissions belong to the linked user; with the link ignored they would not match.
    return {
      ok: {
        contactId: found.contactId,
        userId: linked,
        cred: found.cred,
        claims: found.claims,
        permissions: linked === (user?.id ?? null) ? permissions : undefined,
      },
    };
  }

  /**
   * A username/password login (the session login page): throttled like the AuthX flows; an
   * unknown user, a wrong password and a disabled user all give the same refusal.
   */
  async passwordLogin(
    db: Knex,
    username: string,
    password: string,
    ip: string,
  ): Promise<{ ok: { contactId: number; userId: number } } | { reject: string; retryAfter?: number }> {
    const subjects: Subject[] = [{ ip }, { username }];
    const wait = await this.throttle.retryAfter(db, subjects);
    if (wait > 0) return { reject: THROTTLED, retryAfter: wait };
    // A NUL byte is in no username (nor in PostgreSQL text): an unknown user, looked up nowhere.
    const named = username.length <= 128 && !username.includes('\0');
    const user = named ? await this.store.findUser(db, username) : undefined;
    const ok = (await verifyPassword(password, user?.password_hash)) && user?.is_active === true;
    if (!ok || !user) {
      await this.throttle.fail(db, subjects);
      return { reject: 'Invalid username or password.' };
    }
    await this.throttle.succeed(db, username);
    return { ok: { contactId: user.contact_id, userId: user.id } };
  }

  /** Whether the site key matches, in constant time. */
  siteKeyMatches(given: string | undefined): boolean {
    return typeof given === 'string' && given.length > 0 && safeEqual(given.trim(), this.keyring.siteKey);
  }

  /** Credential check in the reference's priority: password, then API key, then JWT. */
  private async check(
    db: Knex,
    cred: { scheme: string; value: string },
    basic: { username: string; password: string } | null,
    bearerTried = false,
  ): Promise<Found | { reject: string } | null> {
    if (cred.scheme === 'Basic') {
      if (!basic) return null;
      const user = basic.username.includes('\0') ? undefined : await this.store.findUser(db, basic.username);
      const ok = await verifyPassword(basic.password, user?.password_hash);
      return ok && user ? { contactId: user.contact_id, userId: user.id, username: user.username, cred: 'pass' } : null;
    }
    // A bearer value was already tried as an API key and as a JWT by authenticate().
    if (cred.scheme !== 'Bearer' || !cred.value || bearerTried) return null;
    const contactId = await this.store.contactForApiKey(db, cred.value);
    if (contactId !== null) return { contactId, cred: 'api_key' };
    const jwt = await verifyJwt(this.keyring, cred.value);
    if (!jwt || 'reject' in jwt) return jwt;
    return { contactId: jwt.contactId, cred: 'jwt', claims: jwt.claims };
  }

  /** Passes when the list is empty, for JWTs, on a matching site key, or (perm) when the user holds the permission. */
  private async guardsPass(
    db: Knex,
    cred: CredType,
    userId: number | null,
    siteKey: string | undefined,
    guards: Guard[],
    permissions?: Set<string>,
  ): Promise<boolean> {
    if (!guards.length || cred === 'jwt') return true;
    if (guards.includes('site_key') && this.siteKeyMatches(siteKey)) return true;
    if (guards.includes('perm')) {
      const perm = cred === 'pass' ? 'authenticate with password' : 'authenticate with api key';
      return holds(perm, permissions ?? (await this.store.permissionsFor(db, userId)));
    }
    return false;
  }
}
