/**
 * APIv4 rows as CSV (rest-api4's `format=csv` answers and `crm export`): RFC 4180 quoting, and cells a
 * spreadsheet would run as a formula — starting with `=`, `+`, `-`, `@`, a tab or a carriage return —
 * prefixed with `'` so they are shown as text (OWASP's advice).
 */
const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A cell as a spreadsheet should show it: text, never a formula. Numbers are left alone. */
export function neutralise(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return FORMULA.test(text) ? `'${text}` : text;
}

function quote(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF-free: `\n` ends it), every cell neutralised and quoted when needed. */
export function csvLine(cells: unknown[]): string {
  return cells.map((cell) => quote(neutralise(cell))).join(',') + '\n';
}
