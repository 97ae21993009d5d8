/**
 * The plugin loader. It reads every manifest before importing any plugin code, reports every
 * problem at once (each naming its plugin) and orders plugins topologically with ties broken by name.
 * Running plugin code (import, register / ready / close under a timeout) is in plugin-code.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The one function used: `semver` itself loads its whole API (~40 files) at every start.
import satisfies from 'semver/functions/satisfies.js';
import type { ServiceConfig as Config } from './types';
import { AggregateKernelError, KernelError } from './errors';
import { compileOnFirstUse, compileShared, compileWith, describeErrors, MANIFEST_FLAVOR } from './schema';
import manifestSchema from './manifest.schema.json';

export interface PluginManifest {
  name: string;
  version: string;
  kernel: string;
  kind: string;
  description: string;
  enabledByDefault: boolean;
  dependencies: string[];
  after: string[];
  provides: {
    actions: string[];
    services: string[];
    hooks: string[];
    routes: string[];
    cli: string[];
    entities: string[];
  };
  config?: object;
}

export interface DiscoveredPlugin {
  name: string;
  dir: string;
  manifest: PluginManifest;
}

export interface PlannedPlugin extends DiscoveredPlugin {
  /** The plugin's options, validated against its manifest, defaults filled in. */
  options: Record<string, unknown>;
}

/** The folder of the built-in plugins. */
export const BUILTIN_PLUGINS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'plugins');

const validateManifest = compileOnFirstUse(() => compileWith(MANIFEST_FLAVOR, manifestSchema));

/** Finds plugin folders (those holding a manifest.json) and validates every manifest. */
export function discoverPlugins(dirs: string[]): { found: DiscoveredPlugin[]; problems: KernelError[] } {
  const found: DiscoveredPlugin[] = [];
  const problems: KernelError[] = [];
  for (const root of dirs) {
    if (!existsSync(root)) {
      problems.push(new KernelError('E_MANIFEST_INVALID', `Plugin folder ${root} does not exist`));
      continue;
    }
    for (const entry of readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const dir = path.join(root, entry.name);
      const file = path.join(dir, 'manifest.json');
      if (!existsSync(file)) continue;
      let manifest: unknown;
      try {
        manifest = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        problems.push(
          new KernelError(
            'E_MANIFEST_INVALID',
            `Plugin ${entry.name}: manifest.json is not valid JSON (${(err as Error).message})`,
            { plugin: entry.name },
          ),
        );
        continue;
      }
      if (!validateManifest(manifest)) {
        problems.push(
          new KernelError(
            'E_MANIFEST_INVALID',
            `Plugin ${entry.name}: manifest.json: ${describeErrors(validateManifest.errors).join('; ')}`,
            { plugin: entry.name },
          ),
        );
        continue;
      }
      const parsed = manifest as unknown as PluginManifest;
      if (parsed.name !== entry.name) {
        problems.push(
          new KernelError(
            'E_MANIFEST_INVALID',
            `Plugin ${entry.name}: manifest name '${parsed.name}' differs from its folder name`,
            { plugin: entry.name },
          ),
        );
        continue;
      }
      const clash = found.find((p) => p.name === parsed.name);
      if (clash) {
        problems.push(
          new KernelError('E_MANIFEST_INVALID', `Plugin ${parsed.name} is found twice: ${clash.dir} and ${dir}`, {
            plugin: parsed.name,
          }),
        );
        continue;
      }
      found.push({ name: parsed.name, dir, manifest: parsed });
    }
  }
  return { found, problems };
}

/** Which plugins the config enables: the explicit list, or the defaults adjusted by enable/disable. */
export function enabledNames(
  found: DiscoveredPlugin[],
  config: Pick<Config, 'plugins' | 'enable' | 'disable'>,
): string[] {
  if (config.plugins) return [...config.plugins];
  const names = new Set(found.filter((p) => p.manifest.enabledByDefault).map((p) => p.name));
  config.enable.forEach((n) => names.add(n));
  config.disable.forEach((n) => names.delete(n));
  return [...names];
}

/**
 * Resolves the enabled set into a load order, validating dependencies, kernel ranges and plugin
 * options. Throws one aggregate error listing every problem.
 */
export function planPlugins(config: Config, kernelVersion: string, extraDirs: string[] = []): PlannedPlugin[] {
  const dirs = [BUILTIN_PLUGINS_DIR, ...config.pluginPaths.map((p) => path.resolve(config.root, p)), ...extraDirs];
  const { found, problems } = discoverPlugins(dirs);
  const byName = new Map(found.map((p) => [p.name, p]));
  const wanted = enabledNames(found, config);
  const available = found
    .map((p) => p.name)
    .sort()
    .join(', ');
  for (const name of wanted) {
    if (!byName.has(name) && !problems.some((e) => e.plugin === name)) {
      problems.push(
        new KernelError(
          'E_PLUGIN_UNKNOWN',
          `Plugin ${name} is enabled but not installed. Available plugins: ${available}`,
          { plugin: name },
        ),
      );
    }
  }
  // A broken plugin that is not enabled must not stop the start; `crm plugins` still reports it.
  for (let i = problems.length - 1; i >= 0; i--)
    if (problems[i].plugin && !wanted.includes(problems[i].plugin!)) problems.splice(i, 1);
  const enabled = wanted.filter((n) => byName.has(n)).map((n) => byName.get(n)!);
  const enabledSet = new Set(enabled.map((p) => p.name));
  const planned: PlannedPlugin[] = [];
  for (const plugin of enabled) {
    if (!satisfies(kernelVersion, plugin.manifest.kernel)) {
      problems.push(
        new KernelError(
          'E_KERNEL_RANGE',
          `Plugin ${plugin.name} needs kernel ${plugin.manifest.kernel}; this kernel is ${kernelVersion}`,
          { plugin: plugin.name },
        ),
      );
    }
    for (const dep of plugin.manifest.dependencies) {
      if (!enabledSet.has(dep)) {
        const why = byName.has(dep) ? 'which is not enabled' : 'which is not installed';
        problems.push(
          new KernelError('E_PLUGIN_DEPENDENCY', `Plugin ${plugin.name} depends on ${dep}, ${why}`, {
            plugin: plugin.name,
          }),
        );
      }
    }
    const raw = structuredClone(config.pluginConfig[plugin.name] ?? {});
    if (plugin.manifest.config) {
      let check;
      try {
        check = compileShared(plugin.manifest.config);
      } catch (err) {
        problems.push(
          new KernelError(
            'E_MANIFEST_INVALID',
            `Plugin ${plugin.name}: config schema does not compile: ${(err as Error).message}`,
            { plugin: plugin.name },
          ),
        );
        continue;
      }
      if (!check(raw)) {
        problems.push(
          new KernelError(
            'E_CONFIG_INVALID',
            `Plugin ${plugin.name}: ${describeErrors(check.errors, `/pluginConfig/${plugin.name}`).join('; ')}`,
            { plugin: plugin.name },
          ),
        );
      }
    }
    planned.push({ ...plugin, options: raw });
  }
  let ordered: PlannedPlugin[] = [];
  try {
    ordered = toposort(planned);
  } catch (err) {
    problems.push(err as KernelError);
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length) throw new AggregateKernelError(problems);
  return ordered;
}

/** Depth-first topological order over dependencies + after; ties (and roots) by name. */
export function toposort<T extends DiscoveredPlugin>(plugins: T[]): T[] {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  const edges = (p: T) =>
    [...new Set([...p.manifest.dependencies, ...p.manifest.after])].filter((n) => byName.has(n)).sort();
  const state = new Map<string, 'visiting' | 'done'>();
  const out: T[] = [];
  const visit = (p: T, trail: string[]) => {
    const s = state.get(p.name);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(p.name)), p.name];
      throw new KernelError('E_PLUGIN_CYCLE', `Plugin dependency cycle: ${cycle.join(' -> ')}`, {
        plugin: p.name,
        details: { cycle },
      });
    }
    state.set(p.name, 'visiting');
    for (const dep of edges(p)) visit(byName.get(dep)!, [...trail, p.name]);
    state.set(p.name, 'done');
    out.push(p);
  };
  for (const plugin of [...plugins].sort((a, b) => a.name.localeCompare(b.name))) visit(plugin, []);
  return out;
}
