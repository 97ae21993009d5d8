import { ANONYMOUS, apiRespond, definePlugin, Stage, type Api, type Kernel } from '../../kernel';
import { authPrincipal, cliCommands } from '../../host';
import type { Api3Service } from '../api3';
import { entityAccess, type ChangeBus } from '../entity-core';
import { contactRowAccess } from './acl';
import { Authenticator } from './authenticator';
import { userCliCommands } from './cli';
import { firstRun } from './first-run';
import { permissionAliases, permissionsCatalogue, type PermissionInfo } from './hooks';
import { PRINCIPALS_TOPIC, PrincipalCache, type PrincipalCacheOptions } from './principal-cache';
import { Keyring, keyringOptionsFromEnv, type KeyringOptions } from './keyring';
import { CORE_PERMISSIONS } from './permissions';
import { SessionStore, type SessionOptions } from './sessions';
import { IdentityStore, type Aliases } from './store';
import { Throttle, type ThrottleOptions } from './throttle';
import { ROLE_PERMISSIONS } from './types';

interface UsersOptions extends KeyringOptions {
  firstRun: boolean;
  session: SessionOptions;
  throttle: ThrottleOptions;
  principalCache: PrincipalCacheOptions;
}

export default definePlugin<UsersOptions>((ctx) => {
  const { config, hooks, services, serviceConfig } = ctx;
  let aliases: Aliases = {};
  const identity = new IdentityStore(() => aliases);
  // Environment variables win over the config file, as for the kernel's own settings.
  const keyring = new Keyring({
    siteKey: config.siteKey,
    signingKeys: config.signingKeys,
    sessionSecret: config.sessionSecret,
    ...keyringOptionsFromEnv(process.env),
  });
  const throttle = new Throttle(config.throttle);
  const catalogue = new Map<string, PermissionInfo>();

  services.value('identity', identity);
  services.value('keyring', keyring);
  services.value('loginThrottle', throttle);
  const principals = new PrincipalCache(config.principalCache);
  services.value('authenticator', new Authenticator(identity, keyring, throttle, principals));
  services.value('sessions', new SessionStore(keyring, config.session));
  services.value('permissionCatalogue', catalogue);

  hooks.tap(permissionsCatalogue, () => CORE_PERMISSIONS);

  // Every caller, anonymous too: role permissions join what the auth plugin granted.
  hooks.tap(authPrincipal, async (principal) => {
    const db = services.resolve<Kernel['db']>('db');
    const loaded = principal.attributes?.[ROLE_PERMISSIONS] as Set<string> | undefined;
    const granted = loaded ? new Set(loaded) : await identity.permissionsFor(db, principal.userId);
    for (const p of principal.permissions) granted.add(p);
    return { ...principal, permissions: granted };
  });

  hooks.tap(cliCommands, () => userCliCommands());

  // Deleting a contact deletes its keys and user: cached principals go on every instance.
  hooks.tap(apiRespond, async (result, req) => {
    if (req.entity === 'Contact' && req.action.toLowerCase() === 'delete') {
      await services.resolve<ChangeBus>('changeBus').announce(services.resolve<Kernel['db']>('db'), PRINCIPALS_TOPIC);
    }
    return result;
  });

  // Contact ACL basics for Contact and the entities it owns. Late, so an entity's own rule (e.g.
  // OAuth contact tokens) decides first.
  hooks.tap(entityAccess, ({ entity, operation, principal }) => contactRowAccess(entity, operation, principal), {
    stage: Stage.LATE,
  });

  ctx.onReady(async () => {
    const db = services.resolve<Kernel['db']>('db');
    const api = services.resolve<Api>('api');
    const bus = services.resolve<ChangeBus>('changeBus');
    bus.on(PRINCIPALS_TOPIC, () => principals.clear());
    // Announced from the writing transaction: other instances hear it when the change commits.
    const announce = (dbh: Kernel['db']) => bus.announce(dbh, PRINCIPALS_TOPIC);
    identity.onPrincipalsChanged(announce);
    throttle.onBlock(announce);
    // Trusted in-process calls (no permission check), in the caller's transaction.
    const contactApi = async (dbh: Kernel['db'], action: string, params: Record<string, unknown>) => {
      const scope = api.scope('users', ANONYMOUS);
      try {
        return await scope
          .resolve<Api3Service>('api3')
          .call({ entity: 'Contact', action, params, principal: ANONYMOUS, scope, db: dbh, checkPermissions: false });
      } finally {
        await scope.dispose();
      }
    };
    identity.useContacts({
      count: async (dbh, filter) =>
        Number(((await contactApi(dbh, 'getcount', { ...filter, showAll: 'all' })) as number) ?? 0),
      create: async (dbh, params) => Number(((await contactApi(dbh, 'create', params)) as { id: number }).id),
    });
    for (const contributed of await ctx.runHook(permissionAliases)) aliases = { ...aliases, ...contributed };
    await keyring.load(db);
    for (const p of await ctx.runHook(permissionsCatalogue)) if (!catalogue.has(p.name)) catalogue.set(p.name, p);
    if (config.firstRun && serviceConfig.mode !== 'test') {
      const { host, port, publicUrl } = serviceConfig.server;
      await firstRun(db, identity, keyring, publicUrl ?? `http://${host}:${port}`, (text) =>
        process.stdout.write(text),
      );
    }
  });
});
