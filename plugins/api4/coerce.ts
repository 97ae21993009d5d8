/** APIv4 values in JSON types, checked against the field's kind (`what` names the value in errors). */
import { isList, type FieldDef } from '../entity-core';
import { invalid } from './params';

const isTextType = (f: FieldDef) => f.type === 'String' || f.type === 'Text' || f.type === 'Email' || f.type === 'Url';
const DECIMAL = /^-?\d{1,18}(\.\d{1,9})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** One scalar for a field, with JSON types checked (`what` names it in the error). */
export function coerceScalar(field: FieldDef, value: unknown, what: string): unknown {
  const bad = (type: string) =>
    invalid(`${what}: expected ${type}, got ${JSON.stringify(value)?.slice(0, 60) ?? typeof value}`, {
      error_field: what,
    });
  if (value === null) return null;
  switch (field.type) {
    case 'Int':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      throw bad('an integer');
    case 'Float':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      throw bad('a number');
    case 'Money':
      // Exact decimals: a decimal string is kept as written (never through a float), a number as its text.
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'string' && DECIMAL.test(value.trim())) return value.trim();
      throw bad('a decimal amount');
    case 'Boolean':
      if (typeof value === 'boolean') return value;
      if (value === 0 || value === 1 || value === '0' || value === '1') return Number(value) === 1;
      if (value === 'true' || value === 'false') return value === 'true';
      throw bad('a boolean');
    case 'Date':
    case 'Timestamp':
      if (
        typeof value === 'string' &&
        DATE.test(value.trim()) &&
        !Number.isNaN(Date.parse(value.trim().replace(' ', 'T')))
      )
        return value.trim();
      throw bad('a date (YYYY-MM-DD[ HH:MM:SS])');
    default:
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw bad('a string');
  }
}

/** A value to write: serialized fields take a list; strings are held to their maxlength. */
export function coerceWrite(field: FieldDef, value: unknown): unknown {
  if (value === null) return null;
  if (isList(field)) {
    const items = Array.isArray(value) ? value : [value];
    return items.map((x, i) => {
      if (x === null || typeof x === 'object')
        throw invalid(`${field.name}[${i}]: expected a scalar`, { error_field: field.name });
      // A collection's items are typed like its field (ids); a serialized column holds text.
      return field.serialize ? String(x) : coerceScalar(field, x, field.name);
    });
  }
  // A Json field takes any JSON value (stored as its JSON text); Text fields holding JSON may be given as an
  // object or list too, which the entity service stores as JSON text.
  if (field.type === 'Json') return JSON.stringify(value);
  if (field.type === 'Text' && typeof value === 'object') return value;
  const out = coerceScalar(field, value, field.name);
  if (typeof out === 'string' && field.maxlength && isTextType(field) && out.length > field.maxlength) {
    throw invalid(`${field.name}: ${out.length} characters, at most ${field.maxlength}`, {
      error_field: field.name,
      max_length: field.maxlength,
    });
  }
  return out;
}
