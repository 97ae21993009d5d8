/**
 * Cookie sessions shared by every instance: the cookie holds `<id>.<signature>` (HMAC-SHA256 with
 * the keyring's session secret); the database holds only the SHA-256 of the id. A login always
 * makes a new id (no session fixation) and drops the one the browser brought.
 */
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { hmac, randomToken, sha256hex } from './crypto';
import type { Keyring } from './keyring';
import { timingSafeEqual } from 'node:crypto';

export interface SessionOptions {
  cookieName: string;
  ttlSeconds: number;
}

export interface SessionRecord {
  idHash: string;
  contactId: number;
  userId: number | null;
  data: Record<string, unknown>;
}

export class SessionStore {
  constructor(
    private readonly keyring: Keyring,
    readonly options: SessionOptions,
  ) {}

  /** The live session a cookie value names, or undefined (unsigned, forged, expired, ended, user disabled). */
  async read(db: Knex, cookie: string | undefined): Promise<SessionRecord | undefined> {
    const id = this.verify(cookie);
    if (!id) return undefined;
    const row = await db('crm_session as s')
      .leftJoin('crm_user as u', 'u.id', 's.user_id')
      .where('s.id_hash', sha256hex(id))
      .where('s.expires_at', '>', db.fn.now())
      .first('s.id_hash', 's.contact_id', 's.user_id', 's.data', 'u.is_active');
    if (!row || (row.user_id !== null && row.is_active !== true)) return undefined;
    return {
      idHash: row.id_hash,
      contactId: row.contact_id,
      userId: row.user_id,
      data: typeof row.data === 'string' ? JSON.parse(row.data) : (row.data ?? {}),
    };
  }

  /** Starts a session with a fresh id, ending the one named by `previous`; returns the cookie value. */
  async start(
    db: Knex,
    who: { contactId: number; userId: number | null; data?: Record<string, unknown> },
    previous?: string,
  ): Promise<string> {
    await this.end(db, previous);
    const id = randomToken(32);
    await db('crm_session').insert({
      id_hash: sha256hex(id),
      contact_id: who.contactId,
      user_id: who.userId,
      data: JSON.stringify(who.data ?? {}),
      expires_at: db.raw('now() + make_interval(secs => ?)', [this.options.ttlSeconds]),
    });
    // Housekeeping: expired rows go as new ones come.
    await db('crm_session').where('expires_at', '<', db.fn.now()).delete();
    return `${id}.${this.sign(id)}`;
  }

  /** Deletes expired sessions (a scheduled job's clean-up); returns how many went. */
  async purgeExpired(db: Knex): Promise<number> {
    const gone = await db('crm_session').where('expires_at', '<', db.fn.now()).delete().returning('id_hash');
    return gone.length;
  }

  async end(db: Knex, cookie: string | undefined): Promise<void> {
    const id = this.verify(cookie);
    if (id)
      await db('crm_session')
        .where({ id_hash: sha256hex(id) })
        .delete();
  }

  /** HttpOnly, SameSite=Lax, Secure when the request came over HTTPS (behind a proxy: `server.trustProxy`). */
  setCookie(ctx: Context, value: string): void {
    ctx.cookies.set(this.options.cookieName, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      maxAge: this.options.ttlSeconds * 1000,
      overwrite: true,
      signed: false,
    });
  }

  clearCookie(ctx: Context): void {
    ctx.cookies.set(this.options.cookieName, '', {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      maxAge: 0,
      overwrite: true,
      signed: false,
    });
  }

  private sign(id: string): string {
    return hmac(this.keyring.sessionSecret, id).toString('base64url');
  }

  private verify(cookie: string | undefined): string | undefined {
    if (!cookie || cookie.length > 200) return undefined;
    const [id, sig, extra] = cookie.split('.');
    if (!id || !sig || extra !== undefined) return undefined;
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
  }
}
