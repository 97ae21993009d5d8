/** Running plugin code: importing a plugin's register file, and each lifecycle phase under a timeout. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { KernelError } from './errors';
import type { DiscoveredPlugin } from './loader';

/** Imports a plugin's `register.ts` (or `.js`) and returns its default export. */
export async function importRegister(p: DiscoveredPlugin): Promise<(ctx: never) => unknown> {
  const file = ['register.ts', 'register.mts', 'register.js', 'register.mjs']
    .map((f) => path.join(p.dir, f))
    .find(existsSync);
  // A plugin that only declares entities (metadata files) has no behaviour to register.
  if (!file && p.manifest.provides.entities.length) return () => undefined;
  if (!file) throw new KernelError('E_MANIFEST_INVALID', `Plugin ${p.name} has no register.ts`, { plugin: p.name });
  const mod = await import(pathToFileURL(file).href);
  const fn = mod.default ?? mod.register;
  if (typeof fn !== 'function')
    throw new KernelError('E_MANIFEST_INVALID', `Plugin ${p.name}: register.ts must export a default function`, {
      plugin: p.name,
    });
  return fn;
}

/** Runs `work` with a deadline; a timeout or failure is a KernelError naming the plugin and the phase. */
export async function withTimeout<T>(
  work: () => Promise<T> | T,
  ms: number,
  plugin: string,
  phase: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new KernelError('E_PLUGIN_TIMEOUT', `Plugin ${plugin} did not finish ${phase} within ${ms} ms`, { plugin }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(work), deadline]);
  } catch (err) {
    if (err instanceof KernelError) {
      err.plugin ??= plugin;
      throw err;
    }
    throw new KernelError(
      'E_PLUGIN_FAILED',
      `Plugin ${plugin} failed in ${phase}: ${(err as Error)?.message ?? String(err)}`,
      { plugin, cause: err },
    );
  } finally {
    clearTimeout(timer);
  }
}
