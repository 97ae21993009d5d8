/**
 * Request limits (config `limits`, docs/security.md): checks the bindings and the store share. Each
 * refusal is `E_LIMIT_EXCEEDED`, which every binding renders in its own envelope.
 */
import { KernelError } from '../kernel';

declare module '../kernel/types' {
  /** The host's `limits` key of the service configuration (schema: {@link limitsSchema}). */
  interface ServiceConfig {
    limits: Limits;
  }
}

/** Bounds on what one request may ask for (docs/security.md, Limits); each refusal is `E_LIMIT_EXCEEDED`. */
export interface Limits {
  /** Chained calls (`api.<Entity>.<action>` keys, APIv4 `chain` entries, nested ones included) per API call. */
  chainedCalls: number;
  /** Values in one `IN` / `NOT IN` list. */
  inList: number;
  /** Nesting depth of the params of one call (objects and arrays, after JSON decoding). */
  nestingDepth: number;
  /** Rows one read may return to a caller without `administer CRM`; a read matching more is refused. */
  rowsPerRead: number;
  /** PostgreSQL `statement_timeout` per connection, ms (0: none). */
  statementTimeoutMs: number;
  /** Time allowed to receive a whole request, ms (Node's `server.requestTimeout`). */
  requestTimeoutMs: number;
  /** Longest string value written in a log line (SQL and error texts are cut there). */
  logValueBytes: number;
}

/** `limits` in the config schema (docs/deploying.md, Configuration). */
export const limitsSchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  description: 'Bounds on one request (docs/security.md, Limits); a refusal is E_LIMIT_EXCEEDED',
  properties: {
    chainedCalls: { type: 'integer', minimum: 0, default: 100, description: 'Chained calls per API call' },
    inList: { type: 'integer', minimum: 1, default: 10000, description: 'Values in one IN / NOT IN list' },
    nestingDepth: { type: 'integer', minimum: 4, default: 64, description: 'Nesting depth of call params' },
    rowsPerRead: {
      type: 'integer',
      minimum: 1,
      default: 10000,
      description: 'Rows one read may return to a caller without administer CRM',
    },
    statementTimeoutMs: {
      type: 'integer',
      minimum: 0,
      default: 30000,
      description: 'PostgreSQL statement_timeout, ms (0: none)',
    },
    requestTimeoutMs: {
      type: 'integer',
      minimum: 1000,
      default: 60000,
      description: 'Time to receive a whole request, ms',
    },
    logValueBytes: {
      type: 'integer',
      minimum: 256,
      default: 4096,
      description: 'Longest string value in a log line',
    },
  },
} as const;

/** The defaults of `limits` (as the config schema fills them), for callers without a config. */
export const DEFAULT_LIMITS: Limits = {
  chainedCalls: 100,
  inList: 10000,
  nestingDepth: 64,
  rowsPerRead: 10000,
  statementTimeoutMs: 30000,
  requestTimeoutMs: 60000,
  logValueBytes: 4096,
};

export function limitExceeded(message: string, limit: string, value: number): KernelError {
  return new KernelError('E_LIMIT_EXCEEDED', message, {
    details: { error_code: 'limit exceeded', limit, max: value },
  });
}

/**
 * Throws when `value` nests objects/arrays deeper than `max` (iterative: a hostile depth cannot
 * overflow the stack here).
 */
export function checkDepth(value: unknown, max: number, what = 'params'): void {
  if (!value || typeof value !== 'object') return;
  const stack: Array<[unknown, number]> = [[value, 1]];
  let seen = 0;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max)
      throw limitExceeded(`${what} nest deeper than ${max} levels (limits.nestingDepth)`, 'nestingDepth', max);
    // Wide values are walked too; the body size limit bounds the work.
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) {
      if (++seen > 5_000_000) return;
      if (child && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
}

/** `JSON.parse` with the nesting limit applied before anything recursive sees the value. */
export function parseJsonWithin(text: string, maxDepth: number, what = 'JSON'): unknown {
  const v = JSON.parse(text);
  checkDepth(v, maxDepth, what);
  return v;
}
