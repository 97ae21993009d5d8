import path from 'node:path';
import type { Knex } from 'knex';
import { definePlugin, KernelError, type HookBus } from '../../kernel';
import { cliCommands, httpRoutes, type CliContext } from '../../host';
import { entityAccess, type ChangeBus, type EntityRegistry } from '../entity-core';
import type { EntityStore } from '../entity-core';
import { permissionsCatalogue } from '../users';
import { contactTokenAccess } from './access';
import { defineOAuthActions } from './actions';
import { OAuthAccess } from './bearer';
import { OAUTH_PERMISSIONS } from './permissions';
import { oauthRoutes } from './route';
import { contactFromTag } from './contact-link';
import { defineReturnAction } from './return-action';
import { OAuthStore, SESSION_ATTR } from './store';
import { builtinProviderClasses } from './drivers';
import './errors';
import {
  oauthGrants,
  oauthProviderClasses,
  oauthProviders,
  oauthRefreshFailed,
  oauthRefreshRecovered,
  ProviderStage,
} from './hooks';
import { OAuthRefresher } from './keep-fresh';
import { ProviderRegistry, readProviderDir } from './providers';
import { OAuthTokens, refreshTokenGrant } from './tokens';
import type { GrantHandler, ProviderClass } from './types';

/** The change-bus topic that makes every instance rebuild its provider list. */
const PROVIDERS_TOPIC = 'oauth-providers';

export interface OAuthClientOptions {
  cacheTtl: number;
  timeoutMs: number;
  allowInsecureHttp: boolean;
  redirectUri?: string;
  landingUrls: string[];
}

/** The repository's top-level `providers/` folder. */
export const CORE_PROVIDERS_DIR = path.resolve(import.meta.dirname, '..', '..', 'providers');

/** Builds a keyed map from a collect hook's attributed items; a clash names both plugins. */
export function keyed<T>(
  items: Array<{ plugin: string; item: T }>,
  keysOf: (item: T) => string[],
  what: string,
): Map<string, T> {
  const map = new Map<string, T>();
  const owner = new Map<string, string>();
  for (const { plugin, item } of items) {
    for (const key of keysOf(item)) {
      if (owner.has(key)) {
        throw new KernelError(
          'E_HOOK_DUPLICATE',
          `${what} "${key}" is contributed by both plugin ${owner.get(key)} and plugin ${plugin}`,
          { plugin, details: { key, plugins: [owner.get(key), plugin] } },
        );
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
  hooks.tap(oauthProviders, () => readProviderDir(CORE_PROVIDERS_DIR, { includeTests, label: 'providers' }), {
    stage: ProviderStage.CORE_FILES,
  });
  hooks.tap(oauthProviders, () => readProviderDir(privateDir, { includeTests, label: '<dataDir>/oauth-providers' }), {
    stage: ProviderStage.PRIVATE_FOLDER,
  });
  hooks.tap(oauthProviderClasses, () => builtinProviderClasses);
  hooks.tap(oauthGrants, () => refreshTokenGrant);

  let classes = new Map<string, ProviderClass>();
  let grants = new Map<string, GrantHandler>();

  services.singleton(
    'oauthProviders',
    ({ hooks: bus }) =>
      new ProviderRegistry({ hooks: bus as HookBus, classes: () => classes, cacheTtl: config.cacheTtl ?? 600 }),
  );
  // Without server.publicUrl the address the service listens on is its base, so a fresh start can run
  // the authorization-code grant (redirect URI and landing URLs on that address).
  const { host, port } = serviceConfig.server;
  const listenHost = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const publicUrl = serviceConfig.server.publicUrl ?? `http://${listenHost}:${port}`;
  services.singleton(
    'oauthTokens',
    ({ log }) =>
      new OAuthTokens({
        providers: services.resolve<ProviderRegistry>('oauthProviders'),
        grants: () => grants,
        log: log.child({ plugin: 'oauth-client' }),
        timeoutMs: config.timeoutMs ?? 10000,
        allowInsecureHttp: config.allowInsecureHttp ?? false,
        redirectUri: config.redirectUri,
        publicUrl,
      }),
  );

  // ---- storage: entities, permissions, row rules, actions, routes, services ----
  const entities = services.resolve<EntityRegistry>('entities');
  const sessionOf = (p: { attributes?: Readonly<Record<string, unknown>> }) =>
    typeof p.attributes?.[SESSION_ATTR] === 'string' ? (p.attributes[SESSION_ATTR] as string) : null;
  const store = () => services.resolve<OAuthStore>('oauthStore');
  entities.extend('OAuthClient', {
    // Generic create/update (APIv4) check the provider as the reference does.
    async beforeSave(values) {
      if (values.provider !== undefined) await store().checkProvider(values.provider);
      return values;
    },
  });
  entities.extend('OAuthContactToken', {
    // Through the permissioned API, tokens without a contact are invisible (reference §6.3).
    beforeGet(_params, { trusted }) {
      if (trusted) return;
      return { where: [{ path: 'contact_id', op: 'IS NOT NULL' }] };
    },
    // Tag → contact rules (§6.3) on every create that does not name the contact.
    async beforeSave(values, sc) {
      if (sc.existing || values.contact_id !== undefined) return values;
      const contactId = await contactFromTag(store(), sc.db, values as never, {
        callerContactId: sc.principal.contactId,
        createContact: async (params) => Number((await sc.entities.save('Contact', params)).id),
      });
      return { ...values, contact_id: contactId };
    },
  });
  entities.extend('OAuthSessionToken', {
    // Only the caller's own session's tokens, and new ones go to the caller's session.
    beforeGet(_params, { principal, trusted }) {
      if (trusted) return;
      return { where: [{ path: 'session_hash', op: '=', value: sessionOf(principal) ?? '-' }] };
    },
    beforeSave(values, sc) {
      if (sc.existing) return values;
      const hash = sessionOf(sc.principal);
      if (!hash)
        throw new KernelError(
          'E_OAUTH_NO_SESSION',
          'OAuthSessionToken storage needs a logged-in session (the caller has none)',
        );
      return { ...values, session_hash: hash };
    },
  });
  hooks.tap(permissionsCatalogue, () => OAUTH_PERMISSIONS);
  hooks.tap(entityAccess, ({ entity, principal }) => contactTokenAccess(entity, principal));
  defineOAuthActions(ctx.actions, {
    store,
    tokens: () => services.resolve<OAuthTokens>('oauthTokens'),
    providers: () => services.resolve<ProviderRegistry>('oauthProviders'),
    publicUrl,
  });
  defineReturnAction(ctx.actions, { store, tokens: () => services.resolve<OAuthTokens>('oauthTokens') });
  // System.flush is entity-core's: it announces every topic, the OAuth provider list's among them.
  hooks.tap(cliCommands, () => ({
    name: 'flush',
    description: 'Flush the caches (the OAuth provider list) of every running instance on this PostgreSQL database',
    run: async (_args: string[], _opts: Record<string, unknown>, cli: CliContext) => {
      await (cli.services.changeBus as ChangeBus).announce(cli.db, PROVIDERS_TOPIC);
      return 'Flushed: OAuth provider list';
    },
  }));
  hooks.tap(httpRoutes, () => oauthRoutes());
  services.singleton(
    'oauthStore',
    ({ log }) =>
      new OAuthStore({
        entities,
        store: services.resolve<EntityStore>('entityStore'),
        tokens: services.resolve<OAuthTokens>('oauthTokens'),
        providers: services.resolve<ProviderRegistry>('oauthProviders'),
        log: log.child({ plugin: 'oauth-client' }),
        landingAllow: config.landingUrls ?? [],
        publicUrl,
      }),
  );
  services.singleton(
    'oauthRefresher',
    ({ log }) =>
      new OAuthRefresher(
        store,
        (kind, event) => ctx.runHook(kind === 'failed' ? oauthRefreshFailed : oauthRefreshRecovered, event),
        log.child({ plugin: 'oauth-client' }),
      ),
  );
  services.singleton('oauthAccess', () => new OAuthAccess(store, () => services.resolve<Knex>('db')));

  ctx.onReady(async () => {
    const bus = services.resolve<HookBus>('hooks');
    classes = keyed(await bus.collectAttributed(oauthProviderClasses), (c) => [c.name], 'OAuth provider class');
    grants = keyed(
      await bus.collectAttributed(oauthGrants),
      (g) => [g.grantType, ...(g.aliases ?? [])],
      'OAuth grant type',
    );
    // Build the list once now, so a malformed provider file stops the start naming the file.
    const providers = services.resolve<ProviderRegistry>('oauthProviders');
    await providers.list();
    // A flush announced anywhere (System.flush, `crm flush`, another instance) reaches this one.
    services.resolve<ChangeBus>('changeBus').on(PROVIDERS_TOPIC, () => providers.flush());
  });
});
