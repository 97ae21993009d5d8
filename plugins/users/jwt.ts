/**
 * JWTs for AuthX: HS256 with a `kid` header naming the signing key, `sub` = `cid:<contact id>`,
 * `scope` a space-separated list containing `authx`, and `exp`. Only self-issued tokens matter, so
 * only HS256 is accepted (`alg: none` and every other algorithm are refused by jose).
 */
import type { Keyring } from './keyring';

// jose is loaded by the first token issued or checked, not at every start (docs/performance.md).
const jose = () => import('jose');

export async function issueJwt(
  keyring: Keyring,
  contactId: number,
  ttlSeconds: number,
  scope = 'authx',
): Promise<string> {
  const { SignJWT } = await jose();
  const key = keyring.currentSigningKey;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: key.kid })
    .setSubject(`cid:${contactId}`)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key.secret);
}

/**
 * What a bearer token means as a JWT: `null` when it is not one of ours (bad signature, unknown
 * `kid`, other algorithm, no `exp`, no `authx` scope: the caller falls through to `Invalid credential`), a
 * rejection message, or the contact id.
 */
export async function verifyJwt(
  keyring: Keyring,
  token: string,
): Promise<null | { reject: string } | { contactId: number; claims: Record<string, unknown> }> {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 8192) return null;
  // One token, one spelling: base64url whose unused trailing bits are set decodes to the same bytes, so a
  // token with a changed last character would otherwise still verify (the token is malleable).
  if (parts.some((part) => Buffer.from(part, 'base64url').toString('base64url') !== part)) return null;
  const { decodeProtectedHeader, errors, jwtVerify } = await jose();
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  const key = typeof kid === 'string' ? keyring.signingKey(kid) : undefined;
  if (!key) return null;
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key.secret, {
      algorithms: ['HS256'],
      clockTolerance: 0,
      requiredClaims: ['exp'],
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { reject: 'Expired token' };
    return null;
  }
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  if (!scopes.includes('authx')) return null;
  const match = typeof payload.sub === 'string' ? /^cid:(\d{1,15})$/.exec(payload.sub) : null;
  // Contact ids are 32-bit integers: a larger subject names no contact (and must not reach a query).
  if (!match || Number(match[1]) > 2147483647) return { reject: 'Malformed JWT. Must specify the contact ID.' };
  return { contactId: Number(match[1]), claims: payload };
}
