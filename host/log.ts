/**
 * Logging with pino: readable in a terminal, JSON otherwise. Secrets are redacted by key name
 * wherever they appear in the first levels of a log object, so a plugin that logs a request or a
 * token record by mistake still leaks nothing.
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
];

const paths = SECRET_KEYS.flatMap((k) => {
  const p = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const join = (prefix: string) => (p.startsWith('[') ? `${prefix}${p}` : `${prefix}.${p}`);
  return [p, join('*'), join('*.*'), join('*.*.*')];
});

export interface LogOptions {
  level?: string;
  /** Pretty output; default: when stdout is a terminal. */
  pretty?: boolean;
  /** Write here instead of stdout (tests capture logs this way). */
  destination?: DestinationStream;
}

export function createLogger(opts: LogOptions = {}): Logger {
  const base = { level: opts.level ?? 'info', redact: { paths, censor: '[redacted]' }, base: undefined };
  if (opts.destination) return pino(base, opts.destination);
  const pretty = opts.pretty ?? Boolean(process.stdout.isTTY);
  if (pretty)
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } });
  return pino(base);
}
