/**
 * Rows rendered as JSON text by PostgreSQL (docs/adr/0017-rows-rendered-in-postgresql.md): each row's record
 * is built by `row_to_json` with every value already in the API's string form, so Node neither parses the
 * columns nor builds an object per row, and frames the text as it comes. Only columns whose string form
 * PostgreSQL writes exactly as the Node path does are rendered here; a read naming any other column (secrets,
 * encrypted or serialized values, JSON structures, option labels, lists, aggregates) takes the Node path.
 * Values PostgreSQL would write otherwise than Node (doubles in exponent form, years before 1000, time zones)
 * raise the row's flag, and the caller reads the page the Node path's way instead.
 */
import type { Knex } from 'knex';
import type { Column } from './select-sql';

/** How the records are keyed and what a missing value becomes. */
export interface JsonRender {
  /** Output key of each selected column, in select order. */
  keys: string[];
  /** A null value is written as `''` (APIv3 entities with `nulls: 'empty'`) instead of left out. */
  emptyNulls: boolean;
  /** For an option label column, its map of stored value → label as JSON text (the column selects the value). */
  labels?: Array<string | null>;
}

/** One rendered row: the id as text (the APIv3 values key) and the record as JSON text. */
export interface JsonRow {
  k: string | null;
  j: string;
  f?: boolean;
}

/** PostgreSQL's identifier length: a longer output key would be cut, so such a read takes the Node path. */
const MAX_KEY_BYTES = 63;

const quoted = (key: string) => `"${key.replace(/"/g, '""')}"`;

/** A value's string form in SQL, its bindings, and (when PostgreSQL may write it otherwise than Node) a row flag. */
interface Cell {
  sql: string;
  bindings: unknown[];
  flag?: string;
  /** The SQL value is JSON (a list), not text. */
  json?: boolean;
}

/** `??` placeholders for the column's reference, in SQL text that has no other placeholder. */
const onRef = (sql: string, ref: string): unknown[] => Array<string>(sql.split('??').length - 1).fill(ref);

function cell(column: Column, labels: string | null | undefined): Cell | null {
  const { field, ref, expression } = column.resolved;
  if (!ref || expression || column.aggregate || field.encrypted || field.serialize === 'json') return null;
  if (field.secret || field.collection || field.type === 'Json' || (field.labelOf && !labels)) return null;
  // An option label: the stored value looked up in the label map, sent as one JSON object binding.
  // (Node looks labels up by the value's text: the same text in SQL for integers and strings only.)
  if (labels)
    return ['Int', 'String'].includes(field.type) ? { sql: '(?::json ->> ??::text)', bindings: [labels, ref] } : null;
  const plain = (sql: string, flag?: string): Cell => ({ sql, bindings: onRef(sql, ref), flag });
  // A multi-value field (values between \x01 separators) is a list of its non-empty values.
  if (field.serialize) return { ...plain(`array_to_json(array_remove(string_to_array(??, chr(1)), ''))`), json: true };
  switch (field.type) {
    case 'Boolean':
      // As Node reads it back (values.ts fromDb), whatever the column's type.
      return plain(`case when ?? is null then null when ??::text in ('true', '1', 't') then '1' else '0' end`);
    case 'Date':
    case 'Timestamp': {
      const format = field.type === 'Date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH24:MI:SS';
      // Node reads a timestamp as local time and prints the year unpadded: exact for plain timestamps and
      // dates from year 1000 on; anything else (timestamptz, infinity, early years) goes the Node way.
      const flag = `(pg_typeof(??) not in ('date'::regtype, 'timestamp'::regtype) or not isfinite(??) or ?? < '1000-01-01')`;
      return plain(`to_char(??, '${format}')`, flag);
    }
    case 'Float':
      // A double in exponent form (1e-05) or -0 is printed differently by JavaScript. (No question mark in
      // the pattern: knex would take it for a binding.)
      return plain('??::text', `(??::text !~ '^-{0,1}[0-9]+([.][0-9]+){0,1}$' or ??::text = '-0')`);
    default:
      return plain('??::text');
  }
}

/**
 * Selects `k` (the id as text), `j` (the record) and, when a column may need it, `f` (the row's flag) on a
 * planned plain read; false (nothing selected) when a column cannot be rendered here.
 */
export function selectJson(db: Knex, qb: Knex.QueryBuilder, columns: Column[], render: JsonRender): boolean {
  const parts: string[] = [];
  const bindings: unknown[] = [];
  const flags: string[] = [];
  const flagBindings: unknown[] = [];
  let idRef: string | undefined;
  for (let index = 0; index < columns.length; index++) {
    const key = render.keys[index];
    const rendered = cell(columns[index], render.labels?.[index]);
    if (!rendered || Buffer.byteLength(key) > MAX_KEY_BYTES || key.includes('?')) return false;
    if (key === 'id') idRef = columns[index].resolved.ref;
    const empty = rendered.json ? `to_json(''::text)` : `''`;
    parts.push(`${render.emptyNulls ? `coalesce(${rendered.sql}, ${empty})` : rendered.sql} as ${quoted(key)}`);
    bindings.push(...rendered.bindings);
    if (rendered.flag) {
      flags.push(rendered.flag);
      flagBindings.push(...onRef(rendered.flag, columns[index].resolved.ref));
    }
  }
  if (!idRef) return false;
  const record = render.emptyNulls ? 'row_to_json(r)' : 'json_strip_nulls(row_to_json(r))';
  const flag = flags.length ? `, (${flags.join(' or ')}) as f` : '';
  qb.select(
    db.raw(`??::text as k, (select ${record} from (select ${parts.join(', ')}) r)::text as j${flag}`, [
      idRef,
      ...bindings,
      ...flagBindings,
    ] as Knex.Value[]),
  );
  return true;
}
