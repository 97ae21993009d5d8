/**
 * Logging with pino: readable in a terminal, JSON otherwise. Secrets are redacted by key name (any case)
 * wherever they appear in the first levels of a log object or a logged error, so a plugin that logs a
 * request or a token record by mistake still leaks nothing.
 */
import pino, { type DestinationStream, type Logger } from 'pino';

/** Key names whose values are never written to a log. */
export const SECRET_KEYS = [
  'password',
  'pass',
  'passwd',
  'api_key',
  'apiKey',
  'key',
  'site_key',
  'siteKey',
  'secret',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'authorization',
  'cookie',
  'set-cookie',
  'x-crm-auth',
  'x-civi-auth',
  'x-crm-key',
  'x-civi-key',
  '_authx',
  '_authxSiteKey',
  'jwt',
  'code_verifier',
  'signature',
  'credit_card_number',
  'cvv2',
];

const SECRET_NAMES = new Set(SECRET_KEYS.map((k) => k.toLowerCase()));
const REDACTED = '[redacted]';

/**
 * Cuts every string longer than `max` characters and replaces the value of every secret key (by name, any
 * case) a few levels deep: one walk over the log object, cheaper per line than pino's wildcard redaction.
 */
export function cutLong<T>(value: T, max: number, depth = 0): T {
  if (typeof value === 'string')
    return (value.length > max ? `${value.slice(0, max)}… [cut: ${value.length} characters]` : value) as T;
  if (!value || typeof value !== 'object' || depth > 6) return value;
  if (Array.isArray(value)) {
    const list = value.length > 50 ? [...value.slice(0, 50), `… [${value.length} items]`] : value;
    return list.map((v) => cutLong(v, max, depth + 1)) as T;
  }
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = SECRET_NAMES.has(k.toLowerCase()) && v !== undefined ? REDACTED : cutLong(v, max, depth + 1);
  return out as T;
}

export interface LogOptions {
  /** Longest string value in a line (config `limits.logValueBytes`); default 4096. */
  maxValueLength?: number;
  level?: string;
  /** Pretty output; default: when stdout is a terminal. */
  pretty?: boolean;
  /** Write here instead of stdout (tests capture logs this way). */
  destination?: DestinationStream;
}

export function createLogger(opts: LogOptions = {}): Logger {
  const max = opts.maxValueLength ?? 4096;
  const base = {
    level: opts.level ?? 'info',
    base: undefined,
    // No line carries a whole SQL text with its values, or a caller's megabytes: strings are cut.
    formatters: { log: (obj: Record<string, unknown>) => cutLong(obj, max) },
    serializers: { err: (e: Error) => cutLong(pino.stdSerializers.err(e), max) },
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? cutLong(a, max) : a)),
        );
      },
    },
  };
  if (opts.destination) return pino(base, opts.destination);
  const pretty = opts.pretty ?? Boolean(process.stdout.isTTY);
  if (pretty)
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } });
  return pino(base);
}
