/**
 * An APIv3 get answered as pre-rendered JSON (docs/adr/0017-rows-rendered-in-postgresql.md): the records come
 * from PostgreSQL as JSON text in their wire form, and this frames them in the envelope `envelope()` would
 * build, byte for byte: same keys, same order (a PHP-style map keyed by id lists integer keys in ascending
 * order, as JSON.stringify does), `id` when there is one record.
 */
import { WireJson } from '../../kernel';
import type { JsonRow } from '../entity-core';

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
