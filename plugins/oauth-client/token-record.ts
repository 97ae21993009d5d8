/**
 * Pure logic of token records: what a fresh token response becomes, how a refresh merges into a
 * stored token, and when a token is due for refresh. No I/O; `now` is always an argument.
 */
import type { ResolvedOwner, TokenRecord, TokenResponse } from './types';

/** Responses giving `expires` above this are absolute times (league AccessToken's rule). */
const ABSOLUTE_EXPIRES_AFTER = 1349067600;

/** Keys that never go into `raw`: they are stored in their own columns (or resource_owner). */
export const RAW_SECRET_KEYS = ['access_token', 'refresh_token', 'id_token'] as const;

/**
 * Absolute expiry in unix seconds, or null when the response gives no lifetime.
 * `expires_in` wins (0 stays 0); otherwise a large `expires` is absolute and a small one relative.
 */
export function computeExpires(response: Pick<TokenResponse, 'expires_in' | 'expires'>, now: number): number | null {
  if (response.expires_in !== undefined && response.expires_in !== null) {
    const n = Number(response.expires_in);
    if (!Number.isFinite(n)) return null;
    return n === 0 ? 0 : Math.floor(now + n);
  }
  if (response.expires !== undefined && response.expires !== null) {
    const n = Number(response.expires);
    if (!Number.isFinite(n)) return null;
    return n > ABSOLUTE_EXPIRES_AFTER ? Math.floor(n) : Math.floor(now + n);
  }
  return null;
}

/** Splits a response's `scope` by the provider's separator (a space-separated answer is accepted too). */
export function splitScopes(scope: string, separator: string): string[] {
  const parts = scope.split(separator).flatMap((s) => (separator === ' ' ? [s] : s.split(' ')));
  return parts.map((s) => s.trim()).filter(Boolean);
}

/** The response without the secrets; what may be shown as `raw`. */
export function redactRaw(response: Record<string, unknown>): Record<string, unknown> {
  const raw = { ...response };
  for (const k of RAW_SECRET_KEYS) delete raw[k];
  return raw;
}

/**
 * `resource_owner_name` (reference §4): the implementation's own name when it has one, else the first
 * present of upn, userPrincipalName, mail, email, id, else the owner's id field.
 */
export function ownerName(owner: Record<string, unknown> | null | undefined, idKey = 'id'): string | null {
  if (!owner) return null;
  for (const k of ['upn', 'userPrincipalName', 'mail', 'email', 'id']) {
    const v = owner[k];
    if (v !== undefined && v !== null && v !== '') return String(v);
  }
  const id = owner[idKey];
  return id === undefined || id === null || id === '' ? null : String(id);
}

export interface BuildTokenInput {
  response: TokenResponse;
  grantType: string;
  /** Scopes asked for; used when the response does not say. */
  requestedScopes: string[];
  scopeSeparator: string;
  clientId?: number | null;
  tag?: string | null;
  owner?: ResolvedOwner | null;
  /** Unix seconds. */
  now: number;
}

/** What a token record needs from a fresh token response. */
export function buildTokenRecord(input: BuildTokenInput): TokenRecord {
  const { response } = input;
  const scopes =
    typeof response.scope === 'string' && response.scope.trim()
      ? splitScopes(response.scope, input.scopeSeparator)
      : [...input.requestedScopes];
  return {
    client_id: input.clientId ?? null,
    grant_type: input.grantType,
    tag: input.tag ?? null,
    scopes,
    token_type: typeof response.token_type === 'string' ? response.token_type : null,
    access_token: response.access_token,
    refresh_token: typeof response.refresh_token === 'string' ? response.refresh_token : null,
    expires: computeExpires(response, input.now),
    resource_owner_name: input.owner?.name ?? null,
    resource_owner: input.owner?.owner ?? null,
    raw: redactRaw(response),
  };
}

/**
 * A stored token after a successful refresh (reference §5): raw replaced; access_token, refresh_token,
 * expires and token_type copied only when present (a provider that does not rotate keeps the old
 * refresh_token); scopes and owner untouched; a recorded error cleared.
 */
export function mergeRefreshed<T extends Partial<TokenRecord>>(stored: T, response: TokenResponse, now: number): T {
  const next: T = { ...stored, raw: redactRaw(response), error: null };
  if (typeof response.access_token === 'string') next.access_token = response.access_token;
  if (typeof response.refresh_token === 'string') next.refresh_token = response.refresh_token;
  if (typeof response.token_type === 'string') next.token_type = response.token_type;
  const expires = computeExpires(response, now);
  if (expires !== null) next.expires = expires;
  return next;
}

export const DEFAULT_REFRESH_THRESHOLD = 60;

/**
 * Is the token due for refresh? A negative threshold always refreshes; a token without expiry
 * (0 or null) is refreshed every time; otherwise only within `threshold` seconds of `expires`.
 */
export function needsRefresh(token: { expires?: number | null }, opts: { now: number; threshold?: number }): boolean {
  const threshold = opts.threshold ?? DEFAULT_REFRESH_THRESHOLD;
  if (threshold < 0) return true;
  if (!token.expires) return true;
  return !(opts.now < token.expires - threshold);
}
