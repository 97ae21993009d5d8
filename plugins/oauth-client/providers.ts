/**
 * OAuth providers: JSON files (core `providers/`, the private `<dataDir>/oauth-providers/`), records
 * contributed through the `oauthProviders` hook, merged by name, validated with ajv and cached.
 *
 * Cache and several instances: the list is a pure function of this instance's files and enabled
 * plugins, which are deployment artifacts, so there is no cross-instance state to agree on. Each
 * instance keeps its own copy for `cacheTtl` seconds (default 600, as the reference); `flush()`
 * drops this instance's copy at once, and every other instance rebuilds within the TTL.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileWith, type HookBus } from '../../kernel';
import { KernelError, PROVIDERS_FLAVOR } from './util';
import { oauthProviders } from './hooks';
import schema from './providers.schema.json';
import type { ProviderClass, ProviderDriver, ProviderRecord } from './types';

// Generated at build time (bin/validators.mjs: the start checks every provider file), else compiled on first use.
let compiled: ReturnType<typeof compileWith> | undefined;
const validator = () => (compiled ??= compileWith(PROVIDERS_FLAVOR, schema));

/** `gmail.dist.json` → `gmail`, `beeceptor.com.json` → `beeceptor.com`, `x.test.json` → `x`. */
export function providerNameFromFile(file: string): string {
  return path.basename(file).replace(/(\.dist|\.test)?\.json$/i, '');
}

/** Checks one record against providers.schema.json; `where` names the file or plugin in the error. */
export function validateProvider(record: unknown, where: string): ProviderRecord {
  const validate = validator();
  if (!validate(record)) {
    const problems = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(root)'} ${e.message}${
          e.keyword === 'additionalProperties'
            ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
            : ''
        }`,
    );
    throw new KernelError('E_OAUTH_PROVIDER_INVALID', `OAuth provider ${where} is invalid: ${problems.join('; ')}`, {
      details: { source: where, problems },
    });
  }
  return record as unknown as ProviderRecord;
}

/**
 * Reads `*.json` in a folder, in name order (so `x.json` replaces `x.dist.json`). `*.test.json` files are
 * read only when `includeTests`. `label` is how the folder is named in errors and `source`.
 */
export function readProviderDir(dir: string, opts: { includeTests: boolean; label: string }): ProviderRecord[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const out: ProviderRecord[] = [];
  for (const file of files) {
    if (/\.test\.json$/i.test(file) && !opts.includeTests) continue;
    const where = `${opts.label}/${file}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
    } catch (err) {
      throw new KernelError(
        'E_OAUTH_PROVIDER_INVALID',
        `OAuth provider file ${where} is not valid JSON: ${(err as Error).message}`,
        { details: { source: where } },
      );
    }
    const record = validateProvider(parsed, `file ${where}`);
    // The file name decides the name, whatever the file says (reference §1.1.3).
    out.push({ ...record, name: providerNameFromFile(file), source: where });
  }
  return out;
}

/** Merges contributions in order; a later record with the same name replaces the earlier one whole. */
export function mergeProviders(items: Array<{ plugin: string; item: ProviderRecord }>): ProviderRecord[] {
  const byName = new Map<string, ProviderRecord>();
  for (const { plugin, item } of items) {
    const source = item.source ?? `plugin:${plugin}`;
    const where = item.source ? `file ${item.source}` : `from plugin ${plugin}`;
    if (!item || typeof item !== 'object')
      throw new KernelError('E_OAUTH_PROVIDER_INVALID', `OAuth provider ${where} is not an object`, {
        details: { source },
      });
    if (typeof item.name !== 'string' || !item.name) {
      throw new KernelError('E_OAUTH_PROVIDER_INVALID', `OAuth provider ${where} has no name`, { details: { source } });
    }
    const record = item.source ? item : validateProvider(structuredClone(item), `"${item.name}" ${where}`);
    byName.delete(record.name); // keep the winner's position at the end of the insertion order
    byName.set(record.name, { ...record, class: record.class ?? 'generic', tags: record.tags ?? [], source });
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export interface ProviderRegistryOptions {
  hooks: HookBus;
  classes: () => Map<string, ProviderClass>;
  cacheTtl: number;
  now?: () => number;
}

/** The `oauthProviders` service. */
export class ProviderRegistry {
  private cache?: { at: number; list: ProviderRecord[]; byName: Map<string, ProviderRecord> };
  private building?: Promise<NonNullable<ProviderRegistry['cache']>>;
  private generation = 0;
  private drivers = new Map<string, { record: ProviderRecord; driver: ProviderDriver }>();

  constructor(private readonly opts: ProviderRegistryOptions) {}

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private async load(): Promise<NonNullable<ProviderRegistry['cache']>> {
    if (this.cache && this.now() - this.cache.at < this.opts.cacheTtl * 1000) return this.cache;
    if (!this.building) {
      const generation = this.generation;
      const build = (async () => {
        const items = await this.opts.hooks.collectAttributed(oauthProviders);
        const list = mergeProviders(items);
        const built = { at: this.now(), list, byName: new Map(list.map((p) => [p.name, p])) };
        // A flush during the build makes this result stale: hand it to its callers, do not keep it.
        if (generation === this.generation) this.cache = built;
        return built;
      })().finally(() => {
        if (this.building === build) this.building = undefined;
      });
      this.building = build;
    }
    return this.building;
  }

  /** Every provider, sorted by name (copies: callers may not alter the cache). */
  async list(): Promise<ProviderRecord[]> {
    return structuredClone((await this.load()).list);
  }

  async get(name: string): Promise<ProviderRecord> {
    const loaded = await this.load();
    const found = loaded.byName.get(name);
    if (!found) throw unknownProvider(name, [...loaded.byName.keys()]);
    return structuredClone(found);
  }

  async has(name: string): Promise<boolean> {
    return (await this.load()).byName.has(name);
  }

  /** Drops this instance's cached list; the next use rebuilds it (reading files and running the hook). */
  flush(): void {
    this.generation++;
    this.cache = undefined;
    this.building = undefined;
    this.drivers.clear();
  }

  /** The provider implementation for a provider (by name or record), per its `class`. */
  async driver(provider: string | ProviderRecord): Promise<ProviderDriver> {
    const record = typeof provider === 'string' ? await this.get(provider) : provider;
    const cached = this.drivers.get(record.name);
    if (cached && JSON.stringify(cached.record) === JSON.stringify(record)) return cached.driver;
    const className = record.class ?? 'generic';
    const cls = this.opts.classes().get(className);
    if (!cls) {
      throw new KernelError(
        'E_OAUTH_PROVIDER_CLASS',
        `OAuth provider ${record.name} names class "${className}", which no enabled plugin provides ` +
          `(known: ${[...this.opts.classes().keys()].join(', ')})`,
        {
          details: { provider: record.name, class: className },
        },
      );
    }
    const driver = cls.create(record);
    this.drivers.set(record.name, { record, driver });
    return driver;
  }
}

/**
 * The reference's `Invalid provider name: <name>`, followed by the providers this instance knows and where
 * more come from (the oauth-providers-grant catalogue plugin, or a file in the private folder).
 */
export function unknownProvider(name: unknown, known: string[]): KernelError {
  const shown = typeof name === 'string' ? name : JSON.stringify(name ?? null);
  const list = [...known].sort();
  const names = list.length > 20 ? `${list.slice(0, 20).join(', ')}, … (${list.length - 20} more)` : list.join(', ');
  return new KernelError(
    'E_OAUTH_PROVIDER_UNKNOWN',
    `Invalid provider name: ${shown} (known: ${names || 'none'}; ` +
      "the oauth-providers-grant plugin adds grant's catalogue of providers, " +
      'and <dataDir>/oauth-providers/<name>.json adds your own)',
    { details: { provider: name ?? null, known: list } },
  );
}
