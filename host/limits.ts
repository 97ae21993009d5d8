/**
 * Request limits (config `limits`, docs/security.md): checks the bindings and the store share. Each
 * refusal is `E_LIMIT_EXCEEDED`, which every binding renders in its own envelope.
 */
import { KernelError } from '../kernel';
import type { Limits } from './config';

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
