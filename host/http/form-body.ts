/**
 * The common form body, read without koa-body's general machinery: `application/x-www-form-urlencoded`,
 * no Content-Encoding, a Content-Length. APIv3 and APIv4 clients send almost every call this way, and
 * koa-body (four media-type matches, co-body, qs) cost ~10% of a light APIv4 page's CPU. The answer is
 * koa-body's own: the same reader (raw-body, same limit and length check), the same `ctx.request.body` and
 * `ctx.request.rawBody`, and the same object as `qs.parse(text, { allowDots: true })` (what co-body asks
 * qs for). `flatForm` handles a body of plain `key=value` pairs; anything qs treats specially (brackets,
 * dots, repeated keys, empty or prototype keys, more than qs's 1000 parameters) goes to qs itself.
 */
import type { Context } from 'koa';
import qs from 'qs';
import getRawBody from 'raw-body';

/** koa-body's `formLimit` (2 MB) and qs's `parameterLimit`. */
const FORM_LIMIT = 2 * 1024 * 1024;
const PARAMETER_LIMIT = 1000;

/** Whether this request's body is a plain form this reader takes (else koa-body does). */
export function isPlainForm(ctx: Context): boolean {
  const headers = ctx.req.headers;
  const type = headers['content-type'];
  if (!type || headers['content-length'] === undefined || headers['transfer-encoding'] !== undefined) return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** Reads and parses a plain form into `ctx.request.body` (and its text into `ctx.request.rawBody`). */
export async function readPlainForm(ctx: Context): Promise<void> {
  const length = Number(ctx.req.headers['content-length']);
  // raw-body's errors carry the statuses koa-body's would (413 too large, 400 length mismatch).
  const text = await getRawBody(ctx.req, { length, limit: FORM_LIMIT, encoding: 'utf8' });
  const request = ctx.request as unknown as { body?: unknown; rawBody?: string };
  request.body = parseForm(text);
  request.rawBody = text;
}

/** `qs.parse(text, { allowDots: true })`, through `flatForm` when the body is plain pairs. */
export function parseForm(text: string): Record<string, unknown> {
  return flatForm(text) ?? (qs.parse(text, { allowDots: true }) as Record<string, unknown>);
}

/**
 * Plain `key=value` pairs as qs decodes them (`+` as a space, percent escapes as UTF-8, a malformed escape
 * left as written, a key without `=` getting ''), or undefined when qs would do more than that.
 */
export function flatForm(text: string): Record<string, string> | undefined {
  if (text === '') return {};
  // qs turns encoded brackets into brackets before it splits, in keys and values alike.
  const source = text.includes('%') ? text.replace(/%5B/gi, '[').replace(/%5D/gi, ']') : text;
  const parts = source.split('&');
  if (parts.length > PARAMETER_LIMIT) return undefined;
  const out: Record<string, string> = {};
  for (const part of parts) {
    // qs splits `a]=b` after the bracket, not at the first `=`.
    if (part.includes(']=')) return undefined;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (!key || /[[\].]/.test(key) || key in out || key in Object.prototype) return undefined;
    out[key] = eq < 0 ? '' : decode(part.slice(eq + 1));
  }
  return out;
}

/** qs's UTF-8 decoder. */
function decode(raw: string): string {
  if (!raw.includes('%')) return raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  const spaced = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
