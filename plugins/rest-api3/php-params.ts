/**
 * Request-parameter parsing with PHP semantics (`parse_str`, `$_GET`/`$_POST`), because APIv3 clients
 * were written against PHP: top-level names get `.` and space mangled to `_`, brackets build nested
 * arrays (`options[limit]=5`, `return[]=email`, `id[IN][]=1`), the last value of a name wins.
 *
 * Values are built in an insertion-ordered {@link PhpArray} (no prototype, so `__proto__` is just a
 * name) and converted to plain JS at the end: a PHP array whose keys are exactly 0..n-1 becomes a JS
 * array, anything else an object.
 */

/** PHP's default `max_input_nesting_level` and `max_input_vars`. */
export const MAX_DEPTH = 64;
export const MAX_VARS = 1000;

export type PhpValue = string | PhpArray;

/** An insertion-ordered PHP array; integer-like keys are canonical decimal strings. */
export class PhpArray {
  readonly map = new Map<string, PhpValue>();
  private next = 0;

  set(key: string, value: PhpValue): void {
    const k = key;
    const n = intKey(k);
    if (n !== undefined && n >= this.next) this.next = n + 1;
    this.map.set(k, value);
  }

  get(key: string): PhpValue | undefined {
    return this.map.get(key);
  }

  /** `$a[] = v` */
  push(value: PhpValue): void {
    this.set(String(this.next), value);
  }
}

const INT_RE = /^(0|-?[1-9][0-9]*)$/;

function intKey(k: string): number | undefined {
  if (!INT_RE.test(k)) return undefined;
  const n = Number(k);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** `urldecode`: `+` is a space, `%XX` a byte; a malformed escape stays literal; bytes are UTF-8. */
export function urldecode(text: string): string {
  if (!/[%+]/.test(text)) return text;
  // Well-formed text (every `%` an escape, the bytes valid UTF-8) decodes the same through decodeURIComponent,
  // which is many times faster on a URL-encoded JSON parameter; it refuses anything else, decoded byte by byte.
  try {
    return decodeURIComponent(text.includes('+') ? text.replace(/\+/g, ' ') : text);
  } catch {
    return bytewiseUrldecode(text);
  }
}

function bytewiseUrldecode(text: string): string {
  const chunks: Buffer[] = [];
  let lit = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '+') lit += ' ';
    else if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      if (lit) chunks.push(Buffer.from(lit, 'utf8'));
      lit = '';
      chunks.push(Buffer.from([parseInt(text.slice(i + 1, i + 3), 16)]));
      i += 2;
    } else lit += char;
  }
  if (lit) chunks.push(Buffer.from(lit, 'utf8'));
  return Buffer.concat(chunks).toString('utf8');
}

/** Splits a PHP variable name into its base (mangled) and bracket keys; `undefined` drops the variable. */
export function splitName(rawName: string): { base: string; keys: Array<string | null> } | undefined {
  const name = rawName.replace(/^ +/, '');
  const open = name.indexOf('[');
  let base = open < 0 ? name : name.slice(0, open);
  base = base.replace(/[ .]/g, '_');
  if (base === '') return undefined;
  if (open < 0) return { base, keys: [] };
  const keys: Array<string | null> = [];
  let i = open;
  while (i < name.length && name[i] === '[') {
    const close = name.indexOf(']', i + 1);
    if (close < 0) {
      // An unterminated first bracket is not an index: PHP turns it into `_` and keeps the rest verbatim.
      if (keys.length === 0) return { base: base + '_' + name.slice(open + 1), keys: [] };
      break;
    }
    keys.push(close === i + 1 ? null : name.slice(i + 1, close));
    i = close + 1;
  }
  if (keys.length > MAX_DEPTH - 1) return undefined;
  return { base, keys };
}

/** Assigns one `name=value` pair into `target` the way PHP registers a request variable. */
export function assign(target: PhpArray, rawName: string, value: string): void {
  const parts = splitName(rawName);
  if (!parts) return;
  const path: Array<string | null> = [parts.base, ...parts.keys];
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    let child = key === null ? undefined : node.get(key);
    if (!(child instanceof PhpArray)) {
      child = new PhpArray();
      if (key === null) node.push(child);
      else node.set(key, child);
    }
    node = child;
  }
  const last = path[path.length - 1];
  if (last === null) node.push(value);
  else node.set(last, value);
}

/** `parse_str` of a query string or urlencoded body into `target` (at most {@link MAX_VARS} names). */
export function parseQueryString(qs: string, target = new PhpArray()): PhpArray {
  if (!qs) return target;
  let count = 0;
  for (const piece of qs.split('&')) {
    if (piece === '') continue;
    if (++count > MAX_VARS) break;
    const eq = piece.indexOf('=');
    const name = urldecode(eq < 0 ? piece : piece.slice(0, eq));
    const value = eq < 0 ? '' : urldecode(piece.slice(eq + 1));
    assign(target, name, value);
  }
  return target;
}

/** Fills a PhpArray from already-split form fields (multipart), keeping field order. */
export function fromFields(fields: Record<string, unknown>, target = new PhpArray()): PhpArray {
  let count = 0;
  for (const [name, value] of Object.entries(fields ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (++count > MAX_VARS) return target;
      if (typeof v === 'string') assign(target, name, v);
      else if (typeof v === 'number' || typeof v === 'boolean') assign(target, name, String(v));
    }
  }
  return target;
}

/** Top-level override (`array_merge($_GET, $_POST)` for string keys): later wins. */
export function mergeTop(...sources: PhpArray[]): PhpArray {
  const out = new PhpArray();
  for (const s of sources) for (const [k, v] of s.map) out.set(k, v);
  return out;
}

/** Converts to plain JS: lists for 0..n-1 keyed arrays, objects (own `__proto__` allowed) otherwise. */
export function toJs(value: PhpValue): unknown {
  if (typeof value === 'string') return value;
  const entries = [...value.map.entries()];
  if (entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => toJs(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, toJs(v)]));
}

/** Converts the top level to a plain object (never a list: top-level names are names). */
export function topToJs(arr: PhpArray): Record<string, unknown> {
  return Object.fromEntries([...arr.map.entries()].map(([k, v]) => [k, toJs(v)]));
}

/** PHP `empty()`: undefined, null, false, 0, '', '0', and empty arrays/objects. */
export function phpEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '' || v === '0') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}
