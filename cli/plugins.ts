/** `crm plugins`: every plugin found, enabled or not, and what it provides. */
import path from 'node:path';
import { BUILTIN_PLUGINS_DIR, discoverPlugins, type PluginManifest } from '../kernel';
import { enabledNames } from '../kernel/loader';
import { type Config } from '../host';

export function installedPlugins(cfg: Config): Array<{ name: string; dir: string; manifest: PluginManifest }> {
  const dirs = [BUILTIN_PLUGINS_DIR, ...cfg.pluginPaths.map((p) => path.resolve(cfg.root, p))];
  const { found, problems } = discoverPlugins(dirs);
  for (const p of problems) console.error(`warning: ${p.message}`);
  return found;
}

export function describePlugins(cfg: Config, json = false): string {
  const found = installedPlugins(cfg);
  const enabled = new Set(enabledNames(found, cfg));
  const rows = found.map(({ name, manifest: m }) => ({
    name,
    version: m.version,
    kind: m.kind,
    enabled: enabled.has(name),
    description: m.description,
    dependencies: m.dependencies,
    provides: m.provides,
  }));
  if (json) return JSON.stringify(rows, null, 2);
  const lines = rows.map((r) => {
    const provides = Object.entries(r.provides)
      .filter(([, v]) => v.length)
      .map(([k, v]) => `${k}: ${v.join(', ')}`)
      .join('; ');
    return (
      `${r.enabled ? '[x]' : '[ ]'} ${r.name}@${r.version} (${r.kind}) - ${r.description}` +
      (r.dependencies.length ? `\n      needs: ${r.dependencies.join(', ')}` : '') +
      (provides ? `\n      provides ${provides}` : '')
    );
  });
  return `${rows.filter((r) => r.enabled).length} of ${rows.length} plugins enabled ([x]):\n${lines.join('\n')}`;
}
