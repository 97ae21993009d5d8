/**
 * Credentials as AuthX reads them: the credential types, a flow's policy, the authenticator's outcome and
 * its fixed messages, and parsing `<Scheme> <value>` and Basic `user:pass` strings.
 */

export type CredType = 'pass' | 'api_key' | 'jwt';
export type UserMode = 'ignore' | 'optional' | 'require';
export type Guard = 'site_key' | 'perm';

export interface FlowPolicy {
  cred: CredType[];
  user: UserMode;
  guards: Guard[];
}

export interface Authenticated {
  contactId: number;
  userId: number | null;
  cred: CredType;
  claims?: Record<string, unknown>;
  /** The user's role permissions, when authentication already loaded them (saves a query later). */
  permissions?: Set<string>;
}

export type AuthOutcome = { ok: Authenticated } | { reject: string; retryAfter?: number };

export const THROTTLED = 'Too many failed login attempts. Try again later.';
export const INVALID = 'Invalid credential';

/** `<Scheme> <value>` split on the first space; the scheme is case-sensitive. */
export function parseCredential(credential: string): { scheme: string; value: string } | null {
  const i = credential.indexOf(' ');
  if (i <= 0) return null;
  return { scheme: credential.slice(0, i), value: credential.slice(i + 1) };
}

/** `user:pass` from a Basic value; null when the base64 or the shape is malformed. */
export function parseBasic(value: string): { username: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0 || value.length > 4096) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i <= 0) return null;
  return { username: text.slice(0, i), password: text.slice(i + 1) };
}
