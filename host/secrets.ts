/**
 * Secrets at rest: AES-256-GCM (node:crypto) with key ids, so keys can rotate. A stored value reads
 * `enc:v1:<kid>:<iv>:<tag>:<ciphertext>` (base64url parts). The first key encrypts; every key decrypts.
 * Keys come from `secrets.keys` in the config or `CRM_SECRET_KEYS` (`kid:base64key,…`); without them
 * the service generates one in `<dataDir>/secret-keys.json` on first run and logs that it did (never the
 * key). A value that is not in this format is a row written before encryption and is read as it is.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { KernelError, type Logger } from '../kernel';
import type { Config } from './config';

/** The `secrets` key of the configuration (host/config.ts): keys for secrets at rest. */
export const secretsSchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    keys: {
      type: 'array',
      minItems: 1,
      description: 'AES-256-GCM keys for secrets at rest; the first encrypts, all decrypt (env CRM_SECRET_KEYS wins)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kid', 'key'],
        properties: {
          kid: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' },
          key: { type: 'string', description: '32 bytes, base64' },
        },
      },
    },
  },
};

const PREFIX = 'enc:v1:';
const KID = /^[A-Za-z0-9_-]{1,32}$/;

export interface SecretKey {
  kid: string;
  /** 32 bytes. */
  key: Buffer;
}

/** Where the keys came from: rotation with `--new-key` can only add to a file the service manages. */
export type KeySource = 'config' | 'env' | 'file' | 'memory';

export class SecretBox {
  private readonly byKid: Map<string, Buffer>;

  constructor(
    private keys: SecretKey[],
    readonly source: KeySource,
    /** The key file, when `source` is `file`. */
    readonly file?: string,
  ) {
    if (!keys.length) throw new KernelError('E_CONFIG_INVALID', 'No secret key');
    this.byKid = new Map(keys.map((k) => [k.kid, k.key]));
  }

  /** The id of the key new values are encrypted with. */
  get currentKid(): string {
    return this.keys[0].kid;
  }

  get kids(): string[] {
    return this.keys.map((k) => k.kid);
  }

  static isEncrypted(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  encrypt(plain: string): string {
    const { kid, key } = this.keys[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(kid));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${kid}:${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
  }

  /** The plain text; text not in the encrypted format is returned as it is (rows from before encryption). */
  decrypt(value: string): string {
    if (!SecretBox.isEncrypted(value)) return value;
    const [kid, iv, tag, ct] = value.slice(PREFIX.length).split(':');
    const key = this.byKid.get(kid);
    if (!key)
      throw new KernelError(
        'E_SECRET_KEY',
        `A stored secret was encrypted with key "${kid}", which is not configured (keys: ${this.kids.join(', ')}); ` +
          'give every instance the same secrets.keys / CRM_SECRET_KEYS',
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
      decipher.setAAD(Buffer.from(kid));
      decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct ?? '', 'base64url')), decipher.final()]).toString('utf8');
    } catch (err) {
      throw new KernelError(
        'E_SECRET_KEY',
        `A stored secret cannot be decrypted with key "${kid}": the configured key with that id is not the one ` +
          'it was encrypted with, or the value was altered',
        { cause: err },
      );
    }
  }

  /** Whether `value` should be re-encrypted by a rotation (plain text, or another key than the current one). */
  needsRotation(value: string): boolean {
    return !value.startsWith(`${PREFIX}${this.currentKid}:`);
  }

  /** Makes a new key current, written first in the managed key file (the old keys stay, to read old rows). */
  addKey(): string {
    if (this.source !== 'file' || !this.file)
      throw new KernelError(
        'E_INVALID_PARAMS',
        `The keys come from ${this.source === 'env' ? 'CRM_SECRET_KEYS' : 'secrets.keys in the config'}: ` +
          'put a new key first there (32 random bytes in base64: openssl rand -base64 32), then run crm secrets rotate',
      );
    const fresh = generateKey();
    this.keys = [fresh, ...this.keys];
    this.byKid.set(fresh.kid, fresh.key);
    writeFileSync(this.file, keyFileText(this.keys), { mode: 0o600 });
    return fresh.kid;
  }
}

export function generateKey(): SecretKey {
  return { kid: `k${Date.now().toString(36)}${randomBytes(2).toString('hex')}`, key: randomBytes(32) };
}

/** `kid:base64key` as `CRM_SECRET_KEYS` and `crm secrets generate-key` spell a key. */
export const keySpec = (k: SecretKey) => `${k.kid}:${k.key.toString('base64')}`;

function parseKey(kid: string, text: string, where: string): SecretKey {
  const key = Buffer.from(text, /[-_]/.test(text) ? 'base64url' : 'base64');
  if (!KID.test(kid) || key.length !== 32)
    throw new KernelError(
      'E_CONFIG_INVALID',
      `${where}: a key is <kid>:<32 bytes in base64> with a kid of 1-32 letters, digits, _ or - (got kid "${kid}", ${key.length} bytes)`,
    );
  return { kid, key };
}

const keyFileText = (keys: SecretKey[]) =>
  JSON.stringify({ keys: keys.map((k) => ({ kid: k.kid, key: k.key.toString('base64') })) }, null, 2) + '\n';

/** The service's secret box: configured keys, else the data folder's key file (created on first run). */
export function createSecretBox(config: Config, logger?: Logger, env: NodeJS.ProcessEnv = process.env): SecretBox {
  const fromEnv = env.CRM_SECRET_KEYS?.trim();
  if (fromEnv) {
    const keys = fromEnv.split(',').map((spec) => {
      const i = spec.indexOf(':');
      return parseKey(spec.slice(0, i).trim(), spec.slice(i + 1).trim(), 'CRM_SECRET_KEYS');
    });
    return new SecretBox(keys, 'env');
  }
  if (config.secrets.keys?.length)
    return new SecretBox(
      config.secrets.keys.map((k, i) => parseKey(k.kid, k.key, `secrets.keys[${i}]`)),
      'config',
    );
  // An in-memory database vanishes with the process; so may its key.
  if (config.database.memory && !config.database.url) return new SecretBox([generateKey()], 'memory');
  const dir = path.resolve(config.root, config.dataDir);
  const file = path.join(dir, 'secret-keys.json');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, keyFileText([generateKey()]));
      closeSync(fd);
      chmodSync(file, 0o600);
      logger?.warn(
        { file },
        'No secret key configured: generated one for secrets at rest. Back this file up (encrypted values are ' +
          'unreadable without it), and give every instance the same keys (secrets.keys or CRM_SECRET_KEYS)',
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process made it first
    }
  }
  let parsed: { keys?: Array<{ kid: string; key: string }> };
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new KernelError('E_CONFIG_INVALID', `${file} is not a readable key file: ${(err as Error).message}`);
  }
  return new SecretBox(
    (parsed.keys ?? []).map((k, i) => parseKey(k.kid, k.key, `${file} keys[${i}]`)),
    'file',
    file,
  );
}
