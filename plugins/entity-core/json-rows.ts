/**
 * Rows in their wire form (docs/adr/0017-rows-rendered-in-postgresql.md): PostgreSQL writes every value as
 * the API's string (integers, numerics and text as text, booleans '1'/'0', dates by `to_char`, labels looked
 * up, lists as JSON), each in its own text column, and Node joins them into the record's JSON text without
 * parsing a value or building an object per row. (PostgreSQL building the JSON itself, with `row_to_json`,
 * cost it more than twice the statement's other work: see the ADR's revision.) Only columns whose string form
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

/** A string as JSON: quoted, escaped as JSON.stringify escapes (only when it holds a character to escape). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const quote = (value: string): string => (NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`);

/** Turns a selected row (`k`, one text per column, then `f` when flagged) into a {@link JsonRow}. */
export type JsonRowReader = (row: unknown[]) => JsonRow;

/**
 * Selects `k` (the id as text), each column's wire string and, when a column may need it, `f` (the row's
 * flag) on a planned plain read, to be read in array row mode; null (nothing selected) when a column cannot
 * be rendered here. The reader joins a row's strings into its record: keys in select order, a null value
 * left out (it is `''` already where the entity's nulls are empty).
 */
export function selectJson(
  db: Knex,
  qb: Knex.QueryBuilder,
  columns: Column[],
  render: JsonRender,
): JsonRowReader | null {
  const parts: string[] = [];
  const bindings: unknown[] = [];
  const flags: string[] = [];
  const flagBindings: unknown[] = [];
  const prefixes: string[] = [];
  const lists: boolean[] = [];
  let idRef: string | undefined;
  for (let index = 0; index < columns.length; index++) {
    const key = render.keys[index];
    const rendered = cell(columns[index], render.labels?.[index]);
    if (!rendered) return null;
    if (key === 'id') idRef = columns[index].resolved.ref;
    const empty = rendered.json ? `to_json(''::text)` : `''`;
    const sql = render.emptyNulls ? `coalesce(${rendered.sql}, ${empty})` : rendered.sql;
    // A list is JSON text already; the driver would parse a json column, so it comes as text.
    parts.push(rendered.json ? `(${sql})::text` : sql);
    bindings.push(...rendered.bindings);
    prefixes.push(`${JSON.stringify(key)}:`);
    lists.push(Boolean(rendered.json));
    if (rendered.flag) {
      flags.push(rendered.flag);
      flagBindings.push(...onRef(rendered.flag, columns[index].resolved.ref));
    }
  }
  if (!idRef) return null;
  const flag = flags.length ? `, (${flags.join(' or ')}) as f` : '';
  qb.select(db.raw(`??::text as k, ${parts.join(', ')}${flag}`, [idRef, ...bindings, ...flagBindings] as Knex.Value[]));
  const count = prefixes.length;
  return (row) => {
    let text = '';
    for (let index = 0; index < count; index++) {
      const value = row[index + 1];
      if (value === null || value === undefined) continue;
      text += (text ? ',' : '{') + prefixes[index] + (lists[index] ? (value as string) : quote(value as string));
    }
    return {
      k: row[0] as string | null,
      j: text ? `${text}}` : '{}',
      f: flags.length ? Boolean(row[count + 1]) : false,
    };
  };
}
