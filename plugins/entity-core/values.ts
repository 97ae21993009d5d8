/** Values between the API's shape and the database's, by field metadata. */
import type { CompiledEntity, FieldDef } from './types';

export const isText = (field: FieldDef) =>
  field.type === 'String' || field.type === 'Text' || field.type === 'Email' || field.type === 'Url';

/** Encrypts and decrypts `encrypted` fields (the host's secret box). */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

/** One value as the DB takes it (after the generic layer validated it); `encrypted` fields sealed with `cipher`. */
export function toDbValue(field: FieldDef, value: unknown, cipher?: FieldCipher): unknown {
  const out = plainDbValue(field, value);
  return field.encrypted && cipher && typeof out === 'string' && out !== '' ? cipher.encrypt(out) : out;
}

function plainDbValue(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return isText(field) ? (value ?? null) : null;
  // JSON: a structure, or JSON text the API layer already checked.
  if (field.type === 'Json') return typeof value === 'string' ? value : JSON.stringify(value);
  if (field.serialize === 'json') return JSON.stringify(Array.isArray(value) ? value : [value]);
  if (field.serialize) {
    const list = Array.isArray(value)
      ? value
      : String(value)
          .split(/[,\x01]/)
          .filter(Boolean);
    return list.length ? `\x01${list.join('\x01')}\x01` : null;
  }
  if (field.type === 'Boolean') return value === true || value === 1 || value === '1' || value === 'true';
  if (field.type === 'Int') return Number(value);
  return value;
}

/** A row of field values as columns (fields that are not stored columns are left out). */
export function toDb(
  entity: CompiledEntity,
  values: Record<string, unknown>,
  cipher?: FieldCipher,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for…in, not Object.entries: no pair array per value (a batch writes thousands of rows).
  for (const name in values) {
    const value = values[name];
    const field = entity.byName.get(name);
    if (!field || field.related || field.labelOf || field.via || field.collection) continue;
    out[field.column ?? field.name] = toDbValue(field, value, cipher);
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A DB value as the API shows it (before the envelope turns leaves into strings); `encrypted` fields opened. */
export function fromDb(field: FieldDef, value: unknown, cipher?: FieldCipher): unknown {
  if (value === null || value === undefined) return null;
  if (field.encrypted && cipher && typeof value === 'string') {
    const plain = cipher.decrypt(value);
    return field.type === 'Json' ? parseJson(plain) : plain;
  }
  if (field.serialize === 'json' || field.type === 'Json') return typeof value === 'string' ? parseJson(value) : value;
  if (field.serialize && typeof value === 'string') return value.split('\x01').filter(Boolean);
  if (value instanceof Date) {
    const day = `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
    if (field.type === 'Date') return day;
    return `${day} ${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}`;
  }
  if (field.type === 'Boolean') return value === true || value === 1 || value === '1' || value === 't' ? 1 : 0;
  return value;
}

/** Stored JSON text as a structure (text that is not JSON, written before the field was JSON, stays text). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
