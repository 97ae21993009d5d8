/** APIv4 values in JSON types, checked against the field's kind (`what` names the value in errors). */
import type { FieldDef } from '../entity-core';
import { invalid } from './params';

const isTextType = (f: FieldDef) => f.type === 'String' || f.type === 'Text' || f.type === 'Email' || f.type === 'Url';
const DECIMAL = /^-?\d{1,18}(\.\d{1,9})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** One scalar for a field, with JSON types checked (`what` names it in the error). */
export function coerceScalar(f: FieldDef, v: unknown, what: string): unknown {
  const bad = (type: string) =>
    invalid(`${what}: expected ${type}, got ${JSON.stringify(v)?.slice(0, 60) ?? typeof v}`, { error_field: what });
  if (v === null) return null;
  switch (f.type) {
    case 'Int':
      if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
      if (typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v);
      if (typeof v === 'boolean') return v ? 1 : 0;
      throw bad('an integer');
    case 'Float':
      if (typeof v === 'number' && Number.isFinite(v)) return v;
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      throw bad('a number');
    case 'Money':
      // Exact decimals: a decimal string is kept as written (never through a float), a number as its text.
      if (typeof v === 'number' && Number.isFinite(v)) return String(v);
      if (typeof v === 'string' && DECIMAL.test(v.trim())) return v.trim();
      throw bad('a decimal amount');
    case 'Boolean':
      if (typeof v === 'boolean') return v;
      if (v === 0 || v === 1 || v === '0' || v === '1') return Number(v) === 1;
      if (v === 'true' || v === 'false') return v === 'true';
      throw bad('a boolean');
    case 'Date':
    case 'Timestamp':
      if (typeof v === 'string' && DATE.test(v.trim()) && !Number.isNaN(Date.parse(v.trim().replace(' ', 'T'))))
        return v.trim();
      throw bad('a date (YYYY-MM-DD[ HH:MM:SS])');
    default:
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      throw bad('a string');
  }
}

/** A value to write: serialized fields take a list; strings are held to their maxlength. */
export function coerceWrite(f: FieldDef, v: unknown): unknown {
  if (v === null) return null;
  if (f.serialize) {
    const items = Array.isArray(v) ? v : [v];
    return items.map((x, i) => {
      if (x === null || typeof x === 'object')
        throw invalid(`${f.name}[${i}]: expected a scalar`, { error_field: f.name });
      return String(x);
    });
  }
  // A Json field takes any JSON value (stored as its JSON text); Text fields holding JSON may be given as an
  // object or list too, which the entity service stores as JSON text.
  if (f.type === 'Json') return JSON.stringify(v);
  if (f.type === 'Text' && typeof v === 'object') return v;
  const out = coerceScalar(f, v, f.name);
  if (typeof out === 'string' && f.maxlength && isTextType(f) && out.length > f.maxlength) {
    throw invalid(`${f.name}: ${out.length} characters, at most ${f.maxlength}`, {
      error_field: f.name,
      max_length: f.maxlength,
    });
  }
  return out;
}
