/**
 * An APIv3 get answered as pre-rendered JSON (docs/adr/0017-rows-rendered-in-postgresql.md): each record's JSON
 * text, written by Node from the rows as arrays (`wireRecords`) or by PostgreSQL (`rest-api3.rowsFromDatabase`),
 * framed in the envelope `envelope()` would build, byte for byte: same keys, same order (a PHP-style map keyed by
 * id lists integer keys in ascending order, as JSON.stringify does), `id` when there is one record.
 */
import { WireJson } from '../../kernel';
import type { JsonRow } from '../entity-core';
import { stringifyLeaves } from './envelope';

/** A column of an APIv3 get: its key in the record, its position in a row (-1: absent), its option labels. */
export interface WireColumn {
  key: string;
  from: number;
  labels?: Map<string, string>;
  /** A JSON field the record shows as its JSON text. */
  json: boolean;
}

/** A stored value as an APIv3 record shows it (leaves as strings, §2.1); undefined when the key is left out. */
export function wireValue(col: WireColumn, stored: unknown, emptyNulls: boolean): unknown {
  const value = col.labels ? (stored === null ? null : (col.labels.get(String(stored)) ?? null)) : stored;
  if (value === null || value === undefined) return emptyNulls ? '' : undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return col.json ? JSON.stringify(value) : stringifyLeaves(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/** What JSON.stringify escapes in a string: quote, backslash, control characters, lone surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * The records of a get as the envelope's JSON text, written straight from the rows (one string per record,
 * no object per record for JSON.stringify to walk: ~half the CPU of a 25-row, 53-column page; docs/performance.md),
 * or null when the envelope cannot be framed exactly (then the records are built as objects).
 */
export function wireRecords(cols: WireColumn[], rows: unknown[][], emptyNulls: boolean, sequential: boolean) {
  // JSON.stringify writes an object's array-index keys first, whatever their order: such a key takes the object path.
  if (cols.some((col) => isIndex(col.key))) return null;
  const names = cols.map((col) => `${JSON.stringify(col.key)}:`);
  const idAt = cols.findIndex((col) => col.key === 'id');
  const records: JsonRow[] = new Array(rows.length);
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at];
    let text = '';
    let id: string | null = null;
    for (let index = 0; index < cols.length; index++) {
      const col = cols[index];
      const value = wireValue(col, col.from < 0 ? undefined : row[col.from], emptyNulls);
      if (value === undefined) continue;
      const json =
        typeof value !== 'string'
          ? JSON.stringify(value)
          : NEEDS_ESCAPE.test(value)
            ? JSON.stringify(value)
            : `"${value}"`;
      text += (text ? ',' : '{') + names[index] + json;
      if (index === idAt && typeof value === 'string' && value !== '') id = value;
    }
    records[at] = { k: id, j: text ? `${text}}` : '{}' };
  }
  return wireEnvelope(records, sequential);
}

/** An integer key JavaScript orders first and ascending in an object (an array index). */
const INDEX_KEY = /^(0|[1-9][0-9]{0,9})$/;
const isIndex = (key: string) => INDEX_KEY.test(key) && Number(key) < 4294967295;

/** The envelope text, or null when the rows cannot be framed exactly (a missing or repeated id). */
export function wireEnvelope(rows: JsonRow[], sequential: boolean): WireJson | null {
  const count = rows.length;
  let text = `{"is_error":0,"version":3,"count":${count}`;
  if (count === 1) {
    if (rows[0].k === null) return null;
    text += `,"id":${Number(rows[0].k)}`;
  }
  if (!count) return new WireJson(`${text},"values":[]}`);
  if (sequential) return new WireJson(`${text},"values":[${rows.map((row) => row.j).join(',')}]}`);
  const keys = new Set<string>();
  for (const row of rows) {
    if (row.k === null || keys.has(row.k)) return null;
    keys.add(row.k);
  }
  const indexed = rows.filter((row) => isIndex(row.k!)).sort((a, b) => Number(a.k) - Number(b.k));
  const named = indexed.length === count ? [] : rows.filter((row) => !isIndex(row.k!));
  const entries = [...indexed, ...named].map((row) => `${JSON.stringify(row.k)}:${row.j}`);
  return new WireJson(`${text},"values":{${entries.join(',')}}}`);
}

const labelTexts = new WeakMap<object, string>();

/**
 * An option list as the JSON object PostgreSQL looks labels up in (stored value → label), made once per list.
 * Only text values: the Node path looks labels up by the value's text, so a value of another type never matches.
 */
export function labelsJson(options: ReadonlyArray<{ value: unknown; label: unknown }>): string {
  let text = labelTexts.get(options);
  if (text === undefined) {
    const map = new Map(options.map((option) => [option.value, option.label]));
    text = JSON.stringify(Object.fromEntries([...map].filter(([value]) => typeof value === 'string')));
    labelTexts.set(options, text);
  }
  return text;
}
