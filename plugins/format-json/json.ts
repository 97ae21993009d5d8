import { isWireJson } from '../../kernel';

/**
 * JSON as PHP's `json_encode` writes it for APIv3 (unescaped slashes and Unicode; U+2028/2029 still
 * escaped, as PHP does without JSON_UNESCAPED_LINE_TERMINATORS). `prettyprint` indents 4 spaces,
 * which is PHP's JSON_PRETTY_PRINT layout.
 */
export function renderJson(value: unknown, opts: { prettyprint?: unknown } = {}): string {
  // Pre-rendered JSON (kernel/wire.ts) is compact JSON text already: written as it is unless indented.
  const text =
    isWireJson(value) && !opts.prettyprint
      ? value.text
      : JSON.stringify(value === undefined ? null : value, null, opts.prettyprint ? 4 : undefined);
  // Checked first: on the usual one-byte (Latin-1) text V8 answers without scanning.
  if (!text.includes('\u2028') && !text.includes('\u2029')) return text;
  return text.replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}
