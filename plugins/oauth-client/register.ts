import path from 'node:path';
import { definePlugin, KernelError, type HookBus } from '../../kernel';
import { builtinProviderClasses } from './drivers';
import './errors';
import { oauthGrants, oauthProviderClasses, oauthProviders, ProviderStage } from './hooks';
import { ProviderRegistry, readProviderDir } from './providers';
import { OAuthTokens, refreshTokenGrant } from './tokens';
import type { GrantHandler, ProviderClass } from './types';

export interface OAuthClientOptions {
  cacheTtl: number;
  timeoutMs: number;
  allowInsecureHttp: boolean;
  redirectUri?: string;
}

/** The repository's top-level `providers/` folder. */
export const CORE_PROVIDERS_DIR = path.resolve(import.meta.dirname, '..', '..', 'providers');

/** Builds a keyed map from a collect hook's attributed items; a clash names both plugins. */
export function keyed<T>(items: Array<{ plugin: string; item: T }>, keysOf: (item: T) => string[], what: string): Map<string, T> {
  const map = new Map<string, T>();
  const owner = new Map<string, string>();
  for (const { plugin, item } of items) {
    for (const key of keysOf(item)) {
      if (owner.has(key)) {
        throw new KernelError('E_HOOK_DUPLICATE', `${what} "${key}" is contributed by both plugin ${owner.get(key)} and plugin ${plugin}`, { plugin, details: { key, plugins: [owner.get(key), plugin] } });
      }
      owner.set(key, plugin);
      map.set(key, item);
    }
  }
  return map;
}

export default definePlugin<OAuthClientOptions>((ctx) => {
  const { hooks, services, config, serviceConfig } = ctx;
  const includeTests = serviceConfig.mode === 'test';
  const privateDir = path.resolve(serviceConfig.root, serviceConfig.dataDir, 'oauth-providers');

  // Core files early, the private folder last: on a name clash the private folder replaces core
  // (and any plugin) as a whole. See ProviderStage for the full order.
  hooks.tap(oauthProviders, () => readProviderDir(CORE_PROVIDERS_DIR, { includeTests, label: 'providers' }), { stage: ProviderStage.CORE_FILES });
  hooks.tap(oauthProviders, () => readProviderDir(privateDir, { includeTests, label: '<dataDir>/oauth-providers' }), { stage: ProviderStage.PRIVATE_FOLDER });
  hooks.tap(oauthProviderClasses, () => builtinProviderClasses);
  hooks.tap(oauthGrants, () => refreshTokenGrant);

  let classes = new Map<string, ProviderClass>();
  let grants = new Map<string, GrantHandler>();

  services.singleton('oauthProviders', ({ hooks: bus }) => new ProviderRegistry({ hooks: bus as HookBus, classes: () => classes, cacheTtl: config.cacheTtl ?? 600 }));
  services.singleton('oauthTokens', ({ log }) => new OAuthTokens({
    providers: services.resolve<ProviderRegistry>('oauthProviders'),
    grants: () => grants,
    log: log.child({ plugin: 'oauth-client' }),
    timeoutMs: config.timeoutMs ?? 10000,
    allowInsecureHttp: config.allowInsecureHttp ?? false,
    redirectUri: config.redirectUri,
    publicUrl: serviceConfig.server.publicUrl,
  }));

  ctx.onReady(async () => {
    const bus = services.resolve<HookBus>('hooks');
    classes = keyed(await bus.collectAttributed(oauthProviderClasses), (c) => [c.name], 'OAuth provider class');
    grants = keyed(await bus.collectAttributed(oauthGrants), (g) => [g.grantType, ...(g.aliases ?? [])], 'OAuth grant type');
    // Build the list once now, so a malformed provider file stops the start naming the file.
    await services.resolve<ProviderRegistry>('oauthProviders').list();
  });
});
