/**
 * The service's own secrets: the site key, the JWT signing keys (with key ids, so keys can rotate)
 * and the secret that signs session cookies. Each comes from configuration when set; otherwise it
 * is generated once and stored in `crm_secret`, so every instance sharing the database agrees.
 */
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import { randomToken, sha256 } from './crypto';

export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

export interface KeyringOptions {
  siteKey?: string;
  /** `[{kid, secret}]`; the first one signs, all verify. */
  signingKeys?: Array<{ kid?: string; secret: string }>;
  sessionSecret?: string;
}

/** Reads `CRM_SITE_KEY`, `CRM_SIGN_KEYS` (`kid:secret` entries separated by spaces or commas) and `CRM_SESSION_SECRET`. */
export function keyringOptionsFromEnv(env: NodeJS.ProcessEnv): KeyringOptions {
  const out: KeyringOptions = {};
  if (env.CRM_SITE_KEY) out.siteKey = env.CRM_SITE_KEY;
  if (env.CRM_SESSION_SECRET) out.sessionSecret = env.CRM_SESSION_SECRET;
  if (env.CRM_SIGN_KEYS) {
    out.signingKeys = env.CRM_SIGN_KEYS.split(/[\s,]+/)
      .filter(Boolean)
      .map((entry) => {
        const i = entry.indexOf(':');
        return i > 0 ? { kid: entry.slice(0, i), secret: entry.slice(i + 1) } : { secret: entry };
      });
  }
  return out;
}

/** A key id derived from the secret, for configured keys that name none. */
export const deriveKid = (secret: string): string =>
  sha256(`crm-jwt-hs256\0${secret}`).toString('base64url').slice(0, 16);

export class Keyring {
  private site?: string;
  private signing: SigningKey[] = [];
  private session?: string;

  constructor(private readonly opts: KeyringOptions) {
    if (opts.siteKey !== undefined && opts.siteKey.length < 8) {
      throw new KernelError(
        'E_CONFIG_INVALID',
        'The site key (CRM_SITE_KEY or pluginConfig.users.siteKey) must be at least 8 characters long',
      );
    }
    for (const k of opts.signingKeys ?? []) {
      if (k.secret.length < 32)
        throw new KernelError(
          'E_CONFIG_INVALID',
          'Each JWT signing key secret (CRM_SIGN_KEYS or pluginConfig.users.signingKeys) must be at least 32 characters long',
        );
    }
  }

  /** Loads configured secrets, generating (once, shared through the database) those not configured. */
  async load(db: Knex): Promise<void> {
    const configured = this.opts.signingKeys ?? [];
    const found = await storedSecrets(db, {
      ...(this.opts.siteKey == null ? { site_key: () => randomToken(24) } : {}),
      ...(this.opts.sessionSecret == null ? { session_secret: () => randomToken(32) } : {}),
      ...(configured.length ? {} : { jwt_signing_key: () => randomToken(32) }),
    });
    this.site = this.opts.siteKey ?? found.site_key;
    this.session = this.opts.sessionSecret ?? found.session_secret;
    const keys = configured.length ? configured : [{ secret: found.jwt_signing_key }];
    this.signing = keys.map((k) => ({ kid: k.kid ?? deriveKid(k.secret), secret: new TextEncoder().encode(k.secret) }));
  }

  get siteKey(): string {
    return this.ready(this.site);
  }

  get sessionSecret(): string {
    return this.ready(this.session);
  }

  /** The current signing key (the first configured). */
  get currentSigningKey(): SigningKey {
    return this.ready(this.signing[0]);
  }

  signingKey(kid: string): SigningKey | undefined {
    return this.signing.find((k) => k.kid === kid);
  }

  private ready<T>(v: T | undefined): T {
    if (v === undefined) throw new KernelError('E_INTERNAL', 'Keyring used before the users plugin was ready');
    return v;
  }
}

/**
 * The stored secrets of these names, each made by its function (and stored, the first instance to get there
 * winning) when missing: one read on every start after the first.
 */
async function storedSecrets(db: Knex, wanted: Record<string, () => string>): Promise<Record<string, string>> {
  const names = Object.keys(wanted);
  if (!names.length) return {};
  const read = async () => {
    const rows: Array<{ name: string; value: string }> = await db('crm_secret')
      .whereIn('name', names)
      .select('name', 'value');
    return Object.fromEntries(rows.map((row) => [row.name, row.value]));
  };
  const found = await read();
  const missing = names.filter((name) => found[name] === undefined);
  if (!missing.length) return found;
  await db('crm_secret')
    .insert(missing.map((name) => ({ name, value: wanted[name]() })))
    .onConflict('name')
    .ignore();
  return read();
}
