/**
 * id_token checks with jose. With a JWKS URL, the signature, audience (the client's id), expiry and,
 * when configured, issuer must verify. Without one, the payload is only trusted when it came straight
 * from an HTTPS token endpoint (OIDC Core 3.1.3.7, the reference's rule); otherwise it is refused.
 */
import type { JWTVerifyGetKey } from 'jose';
import { KernelError } from './util';

// jose is loaded by the first id_token checked, not at every start (docs/performance.md).
const jose = () => import('jose');

export interface VerifyIdTokenOptions {
  /** The provider's JWKS (our `urlJwks` option), tenant already replaced. */
  jwksUrl?: string;
  /** The token endpoint the id_token came from. */
  tokenUrl: string;
  /** The client's id: the expected `aud`. */
  audience: string;
  issuer?: string;
  /** Key set lookup; default a cached remote JWKS per URL. */
  keys?: JWTVerifyGetKey;
  timeoutMs?: number;
}

const remoteSets = new Map<string, JWTVerifyGetKey>();

/** A remote key set, cached per URL (jose refetches on an unknown `kid`, with a cooldown). */
export async function remoteJwks(url: string, timeoutMs = 10000): Promise<JWTVerifyGetKey> {
  let set = remoteSets.get(url);
  if (!set) {
    const { createRemoteJWKSet } = await jose();
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: timeoutMs });
    remoteSets.set(url, set);
  }
  return set;
}

/** Forgets cached key sets (tests, key rotation drills). */
export function clearJwksCache(): void {
  remoteSets.clear();
}

/** Returns the verified claims, or throws E_OAUTH_ID_TOKEN / E_OAUTH_INSECURE / E_OAUTH_UNREACHABLE. */
export async function verifyIdToken(idToken: string, opts: VerifyIdTokenOptions): Promise<Record<string, unknown>> {
  const { decodeJwt, decodeProtectedHeader, errors: joseErrors, jwtVerify } = await jose();
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(idToken).alg;
  } catch {
    throw new KernelError('E_OAUTH_ID_TOKEN', 'The id_token is not a JWT', { details: { reason: 'malformed' } });
  }
  if (!opts.jwksUrl && !opts.keys) {
    if (!/^https:/i.test(opts.tokenUrl)) {
      throw new KernelError(
        'E_OAUTH_INSECURE',
        'Cannot decode ID token from insecure source: the token URL is not HTTPS and the provider has no JWKS (urlJwks) to verify it',
        {
          details: { reason: 'insecure_source' },
        },
      );
    }
    try {
      return decodeJwt(idToken) as Record<string, unknown>;
    } catch {
      throw new KernelError('E_OAUTH_ID_TOKEN', 'The id_token payload cannot be decoded', {
        details: { reason: 'malformed' },
      });
    }
  }
  if (!alg || alg.toLowerCase() === 'none') {
    throw new KernelError('E_OAUTH_ID_TOKEN', 'Refused an unsigned id_token (alg none) from a provider with a JWKS', {
      details: { reason: 'unsigned' },
    });
  }
  const keys = opts.keys ?? (await remoteJwks(opts.jwksUrl!, opts.timeoutMs));
  try {
    const { payload } = await jwtVerify(idToken, keys, {
      audience: opts.audience,
      ...(opts.issuer ? { issuer: opts.issuer } : {}),
      clockTolerance: 60,
    });
    return payload as Record<string, unknown>;
  } catch (err) {
    if (err instanceof joseErrors.JWKSTimeout || (err instanceof TypeError && /fetch/i.test(err.message))) {
      throw new KernelError('E_OAUTH_UNREACHABLE', "The provider's JWKS could not be fetched to verify the id_token", {
        details: { reason: 'jwks_unreachable' },
      });
    }
    const code = (err as { code?: string }).code ?? 'ERR_JOSE';
    const why =
      code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
        ? 'its signature does not verify'
        : code === 'ERR_JWKS_NO_MATCHING_KEY'
          ? "no key of the provider's JWKS matches it"
          : code === 'ERR_JWT_EXPIRED'
            ? 'it has expired'
            : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
              ? `its "${(err as { claim?: string }).claim}" claim is wrong`
              : `it failed verification (${code})`;
    throw new KernelError('E_OAUTH_ID_TOKEN', `The id_token was refused: ${why}`, { details: { reason: code } });
  }
}
