/** Builds APIv3 success envelopes (§2.1): key order, string leaves, `[]` when empty, `id` only for one value. */
import type { Api3Envelope } from './types';

/** Leaf scalars become strings (null → '' unless `omitNull`); arrays and objects are walked. */
export function stringifyLeaves(value: unknown, omitNull = false): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return formatDate(value);
  if (Array.isArray(value)) return value.map((x) => stringifyLeaves(x, omitNull));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(value as Record<string, unknown>)) {
      if (omitNull && (child === null || child === undefined)) continue;
      // Chained results under `api.*` keep their own (already built) shape.
      out[k] = k.startsWith('api.') || k.startsWith('api_') ? child : stringifyLeaves(child, omitNull);
    }
    return out;
  }
  return value;
}

/** `YYYY-MM-DD HH:MM:SS` as the reference prints dates. */
export function formatDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/**
 * An envelope over records: keyed by record id, or a list when `sequential`. `extra` keys go last.
 * Records must already be in wire form (see {@link stringifyLeaves}).
 */
export function envelope(
  records: Array<Record<string, unknown>>,
  opts: { sequential?: boolean; extra?: Record<string, unknown> } = {},
): Api3Envelope {
  const count = records.length;
  const env: Api3Envelope = { is_error: 0, version: 3, count, values: [] };
  if (count === 1 && records[0].id !== undefined && records[0].id !== '') env.id = Number(records[0].id);
  if (count > 0) {
    if (opts.sequential) env.values = records;
    else {
      const keyed: Record<string, unknown> = {};
      records.forEach((r, i) => {
        keyed[String(r.id ?? i)] = r;
      });
      env.values = keyed;
    }
  }
  // Rebuild to keep the wire key order: is_error, version, count, [id], values, extras.
  const ordered = { is_error: 0, version: 3, count } as Api3Envelope;
  if (env.id !== undefined) ordered.id = env.id;
  ordered.values = env.values;
  return Object.assign(ordered, opts.extra ?? {});
}

/** An envelope whose `values` is a scalar or a free-form value (delete's `1`, getoptions' map). */
export function scalarEnvelope(values: unknown, extra: Record<string, unknown> = {}): Api3Envelope {
  const count = values && typeof values === 'object' ? Object.keys(values).length : values ? 1 : 0;
  const empty = values && typeof values === 'object' && Object.keys(values).length === 0;
  return Object.assign({ is_error: 0 as const, version: 3 as const, count, values: empty ? [] : values }, extra);
}

/** The rows of a result, for chaining: envelope values (map or list), or the getsingle record itself. */
export function rowsOf(result: unknown, action: string): Array<Record<string, unknown>> {
  if (!result || typeof result !== 'object') return [];
  if (action === 'getsingle') return [result as Record<string, unknown>];
  const values = (result as { values?: unknown }).values;
  if (Array.isArray(values)) return values.filter((v) => v && typeof v === 'object');
  if (values && typeof values === 'object')
    return Object.values(values as Record<string, unknown>).filter((v) => v && typeof v === 'object') as Array<
      Record<string, unknown>
    >;
  return [];
}
