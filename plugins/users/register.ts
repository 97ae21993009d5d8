import { ANONYMOUS, definePlugin, type Kernel } from '../../kernel';
import { authPrincipal, cliCommands, httpListening } from '../../host';
import { entityAccess, type ChangeBus, type EntityRegistry, type EntityService } from '../entity-core';
import { contactRowRule } from './acl';
import { setContactApiKey } from './api-keys';
import { Authenticator } from './authenticator';
import { userCliCommands } from './cli';
import { firstRun } from './first-run';
import { permissionAliases, permissionsCatalogue, type PermissionInfo } from './hooks';
import { PRINCIPALS_TOPIC, PrincipalCache, type PrincipalCacheOptions } from './principal-cache';
import { Keyring, keyringOptionsFromEnv, type KeyringOptions } from './keyring';
import { CORE_PERMISSIONS } from './permissions';
import { defineUfMatchActions } from './uf-match';
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
  defineUfMatchActions(ctx.actions);
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
    // The role's set itself when it holds everything already (a principal's set is read-only): a cached
    // credential's principal then has the same set on every request, and what is keyed by it is made once.
    if (loaded && [...principal.permissions].every((p) => loaded.has(p))) return { ...principal, permissions: loaded };
    const granted = loaded
      ? new Set(loaded)
      : principal.userId == null
        ? await principals.anonymousPermissions(() => identity.permissionsFor(db, null))
        : await identity.permissionsFor(db, principal.userId);
    for (const p of principal.permissions) granted.add(p);
    return { ...principal, permissions: granted };
  });

  hooks.tap(cliCommands, () => userCliCommands());

  // Deleting a contact (through either API, or trusted code) deletes its keys and user: cached principals go
  // on every instance once the deleting transaction commits.
  const entities = services.resolve<EntityRegistry>('entities');
  if (entities.find('Contact'))
    entities.extend('Contact', {
      params: ['api_key'],
      afterDelete: (_row, sc) => services.resolve<ChangeBus>('changeBus').announce(sc.db, PRINCIPALS_TOPIC),
      // A contact's `api_key` authenticates, as in the reference (its hash is what a call is checked against).
      async afterSave(row, sc) {
        if (sc.params.api_key === undefined) return;
        const key = sc.params.api_key;
        await setContactApiKey(
          sc.db,
          Number(row.id),
          key === null || key === '' || key === 'null' ? null : String(key),
        );
        await services.resolve<ChangeBus>('changeBus').announce(sc.db, PRINCIPALS_TOPIC);
      },
    });

  // Contact ACL basics for Contact and the entities it owns (an entity's own rule may narrow them further).
  hooks.tap(entityAccess, contactRowRule);

  ctx.onReady(async () => {
    const db = services.resolve<Kernel['db']>('db');
    const bus = services.resolve<ChangeBus>('changeBus');
    bus.on(PRINCIPALS_TOPIC, () => principals.clear());
    // Announced from the writing transaction: other instances hear it when the change commits.
    const announce = (dbh: Kernel['db']) => bus.announce(dbh, PRINCIPALS_TOPIC);
    identity.onPrincipalsChanged(announce);
    throttle.onBlock(announce);
    // Contacts through the entity service: trusted, in the caller's transaction (trash included).
    const service = services.resolve<EntityService>('entityService');
    const contacts = (dbh: Kernel['db']) => service.bind({ db: dbh, principal: ANONYMOUS, trusted: true });
    identity.useContacts({
      count: (dbh, filter) =>
        contacts(dbh).count('Contact', [
          ...Object.entries(filter).map(([path, value]) => ({ path, op: '=' as const, value })),
          { path: 'is_deleted', op: 'IN', value: [0, 1] },
        ]),
      create: async (dbh, params) => Number((await contacts(dbh).save('Contact', params)).id),
    });
    for (const contributed of await ctx.runHook(permissionAliases)) aliases = { ...aliases, ...contributed };
    await keyring.load(db);
    for (const permission of await ctx.runHook(permissionsCatalogue))
      if (!catalogue.has(permission.name)) catalogue.set(permission.name, permission);
  });

  // First run belongs to `crm serve` only: a CLI command on an empty database creates no administrator.
  hooks.tap(httpListening, async ({ url }) => {
    if (!config.firstRun || serviceConfig.mode === 'test') return;
    await firstRun(services.resolve<Kernel['db']>('db'), identity, keyring, url, (text) => process.stdout.write(text));
  });
});
