/**
 * Entities declared as data: a plugin lists `provides.entities: ["Greeting"]` in its manifest and ships
 * `entities/Greeting.ts` whose default export is the EntityDef. entity-core defines them all before any
 * entity plugin registers, so a plugin with behaviour only adds it (`entities.extend(name, lifecycle)`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { KernelError } from '../../kernel';
import type { EntityDef } from './types';

/** The part of a planned plugin this needs (the kernel's `PluginContext.plugins` entries fit). */
export interface EntityProvider {
  name: string;
  dir: string;
  manifest: { provides: { entities?: string[] } };
}

/** The file that declares `entity` in `plugin`. */
export function entityFile(plugin: EntityProvider, entity: string): string {
  const base = path.join(plugin.dir, 'entities', entity);
  return existsSync(`${base}.js`) && !existsSync(`${base}.ts`) ? `${base}.js` : `${base}.ts`;
}

/** The EntityDefs a plugin's manifest lists, read from its entities/ folder, in manifest order. */
export async function loadEntityFiles(plugin: EntityProvider): Promise<EntityDef[]> {
  const defs: EntityDef[] = [];
  for (const entity of plugin.manifest.provides.entities ?? []) {
    const file = entityFile(plugin, entity);
    if (!existsSync(file))
      throw new KernelError('E_MANIFEST_INVALID', `Plugin ${plugin.name} lists entity ${entity} but has no ${file}`, {
        plugin: plugin.name,
      });
    const loaded = ((await import(pathToFileURL(file).href)) as { default?: EntityDef }).default;
    if (!loaded || loaded.name !== entity || !Array.isArray(loaded.fields))
      throw new KernelError(
        'E_MANIFEST_INVALID',
        `Plugin ${plugin.name}: ${file} must default-export the EntityDef of ${entity}`,
        { plugin: plugin.name },
      );
    defs.push(loaded);
  }
  return defs;
}
