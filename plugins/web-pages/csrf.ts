/**
 * CSRF tokens for form posts. A logged-in caller's token is an HMAC of its session (the SHA-256 of the
 * session id, `principal.attributes.sessionHash`) under the session secret: stateless, shared by every
 * instance, and void once the session ends. Before login there is no session, so the login form uses a
 * double-submit cookie (random, HttpOnly, SameSite=Strict) whose HMAC is the form's token.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Principal } from '../../kernel';

/** What CSRF needs from the `keyring` service (users). */
export interface SecretSource {
  readonly sessionSecret: string;
}

export const PRELOGIN_COOKIE = 'crm_csrf';

const mac = (secret: string, purpose: string, subject: string) =>
  createHmac('sha256', secret).update(`${purpose}\0${subject}`).digest('base64url');

const same = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export class Csrf {
  constructor(private readonly keys: () => SecretSource) {}

  /** The token a logged-in caller's forms carry, or undefined when the caller has no session. */
  tokenFor(principal: Principal | undefined): string | undefined {
    const sessionHash = principal?.attributes?.sessionHash;
    if (typeof sessionHash !== 'string' || !sessionHash) return undefined;
    return mac(this.keys().sessionSecret, 'csrf', sessionHash);
  }

  /** Whether a posted token belongs to the caller's session. */
  verify(principal: Principal | undefined, posted: unknown): boolean {
    const expected = this.tokenFor(principal);
    return !!expected && typeof posted === 'string' && same(expected, posted);
  }

  /** Before login: sets (or keeps) the double-submit cookie and returns the form's token. */
  preLoginToken(ctx: Context): string {
    let nonce = ctx.cookies.get(PRELOGIN_COOKIE);
    if (!nonce || !/^[A-Za-z0-9_-]{20,64}$/.test(nonce)) {
      nonce = randomBytes(24).toString('base64url');
      ctx.cookies.set(PRELOGIN_COOKIE, nonce, {
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.secure,
        path: '/',
        overwrite: true,
        signed: false,
      });
    }
    return mac(this.keys().sessionSecret, 'csrf-prelogin', nonce);
  }

  /** Whether a login post carries the token of the cookie its browser holds. */
  verifyPreLogin(ctx: Context, posted: unknown): boolean {
    const nonce = ctx.cookies.get(PRELOGIN_COOKIE);
    if (!nonce || typeof posted !== 'string') return false;
    return same(mac(this.keys().sessionSecret, 'csrf-prelogin', nonce), posted);
  }
}
