/** File names: refused when they carry a path, sanitised into storage keys, and read back from them. */
import { randomBytes } from 'node:crypto';
import { invalid } from '../api3';

/** The name a caller gave: a base name, no separators, no control characters. */
export function checkName(name: unknown): string {
  if (typeof name !== 'string' || !name.trim()) throw invalid('name must be a non-empty string');
  if (/[/\\]/.test(name) || name === '.' || name === '..' || /[\x00-\x1f]/.test(name)) throw invalid('Malformed name');
  return name;
}

/** A storage key from a name: safe characters only, shortened, with a random suffix before the extension. */
export function keyFor(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+/, '') || 'file';
  const dot = safe.lastIndexOf('.');
  const stem = (dot > 0 ? safe.slice(0, dot) : safe).slice(0, 100);
  const ext = dot > 0 ? safe.slice(dot).slice(0, 20) : '';
  return `${stem}_${randomBytes(16).toString('hex')}${ext}`;
}

/** The name shown for a stored file: its key without the random suffix. */
export function nameOf(key: string): string {
  return key.replace(/_[0-9a-f]{32}(\.[^.]*)?$/, '$1');
}
