/** Small crypto helpers: scrypt password hashes, key hashing and constant-time comparison. */
import {
  createHash,
  createHmac,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** scrypt cost parameters (N = 2^15, r = 8, p = 1: ~32 MiB and a few tens of ms per check). */
const N = 32768,
  R = 8,
  P = 1,
  KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/** `scrypt$N$r$p$<salt b64url>$<hash b64url>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: MAXMEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

// Checked when the user is unknown or has no password, so both cases cost the same time.
let dummy: Promise<string> | undefined;

/** Constant-time check of a password against a stored hash; a missing or malformed hash is `false`. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    dummy ??= hashPassword(randomBytes(8).toString('hex'));
    await verifyPassword(password, await dummy);
    return false;
  }
  const [, cost, blockSize, parallelism, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(cost),
    r: Number(blockSize),
    p: Number(parallelism),
    maxmem: MAXMEM,
  });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export const sha256 = (value: string | Buffer): Buffer => createHash('sha256').update(value).digest();
export const sha256hex = (value: string | Buffer): string => sha256(value).toString('hex');
export const hmac = (secret: string, value: string): Buffer => createHmac('sha256', secret).update(value).digest();

/** Constant-time string equality (compares SHA-256 digests, so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** A URL-safe random token with `bytes` bytes of entropy. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
