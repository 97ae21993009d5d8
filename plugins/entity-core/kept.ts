import type { CompiledEntity } from './types';

/**
 * What a read worked out, kept for the next identical one: at most `max` entries, the least recently used
 * going first, all forgotten whenever `version()` moves (the registry's options version: run-time metadata
 * changes and option writes, on any instance). An entry answers only for the metadata object it was made
 * with. The store's compiled reads (read-plans.ts) and APIv4's get resolutions are kept this way.
 */
export class KeptByVersion<V extends { entity: CompiledEntity }> {
  private readonly kept = new Map<string, V>();
  private seen = -1;

  constructor(
    private readonly version: () => number,
    private readonly max = 256,
  ) {}

  get(key: string, entity: CompiledEntity): V | undefined {
    this.checkVersion();
    const found = this.kept.get(key);
    if (!found || found.entity !== entity) return undefined;
    // Most recently used last (Map keeps insertion order), once eviction is near: moving an entry costs a delete
    // and an insert, and while the map is small each pair rebuilds its table (a light read does two such gets).
    if (this.kept.size > this.max / 2) {
      this.kept.delete(key);
      this.kept.set(key, found);
    }
    return found;
  }

  set(key: string, value: V): V {
    this.checkVersion();
    this.kept.delete(key);
    this.kept.set(key, value);
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    return value;
  }

  /**
   * `make`'s value, kept under `key` (none: not kept) unless the version moved while it was made: then it may
   * hold what was just forgotten (options read before an option write), and it is used once, not kept.
   */
  async made(key: string | undefined, make: () => Promise<V>): Promise<V> {
    const version = this.version();
    const value = await make();
    return key !== undefined && this.version() === version ? this.set(key, value) : value;
  }

  get size(): number {
    return this.kept.size;
  }

  private checkVersion(): void {
    const now = this.version();
    if (now === this.seen) return;
    this.kept.clear();
    this.seen = now;
  }
}

/** Permission sets seen as key text, with the size each had then. */
const permissionTexts = new WeakMap<ReadonlySet<string>, { size: number; text: string }>();

/**
 * A reader's permissions as one text, in their order, for a kept read's key: made once per set (the principals
 * of cached credentials share theirs from request to request). Sets are read-only once a principal holds them;
 * should one grow all the same, its size no longer matches and the text is made again.
 */
export function permissionsText(permissions: ReadonlySet<string>): string {
  const seen = permissionTexts.get(permissions);
  if (seen && seen.size === permissions.size) return seen.text;
  let text = '';
  for (const permission of permissions) text += `${permission}\n`;
  permissionTexts.set(permissions, { size: permissions.size, text });
  return text;
}
