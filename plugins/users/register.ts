import { authPrincipal, cliCommands, definePlugin, type Kernel } from '../../kernel';
import { Authenticator } from './authenticator';
import { userCliCommands } from './cli';
import { firstRun } from './first-run';
import { permissionsCatalogue, type PermissionInfo } from './hooks';
import { Keyring, keyringOptionsFromEnv, type KeyringOptions } from './keyring';
import { CORE_PERMISSIONS } from './permissions';
import { SessionStore, type SessionOptions } from './sessions';
import { IdentityStore, type Aliases } from './store';
import { Throttle, type ThrottleOptions } from './throttle';
import './types';

interface UsersOptions extends KeyringOptions {
  firstRun: boolean;
  session: SessionOptions;
  throttle: ThrottleOptions;
}

export default definePlugin<UsersOptions>((ctx) => {
  const { config, hooks, services, serviceConfig } = ctx;
  let aliases: Aliases = {};
  const identity = new IdentityStore(() => aliases);
  // Environment variables win over the config file, as for the kernel's own settings.
  const keyring = new Keyring({ siteKey: config.siteKey, signingKeys: config.signingKeys, sessionSecret: config.sessionSecret, ...keyringOptionsFromEnv(process.env) });
  const throttle = new Throttle(config.throttle);
  const catalogue = new Map<string, PermissionInfo>();

  services.value('identity', identity);
  services.value('keyring', keyring);
  services.value('loginThrottle', throttle);
  services.value('authenticator', new Authenticator(identity, keyring, throttle));
  services.value('sessions', new SessionStore(keyring, config.session));
  services.value('permissionCatalogue', catalogue);

  hooks.tap(permissionsCatalogue, () => CORE_PERMISSIONS);

  // Every caller, anonymous too: role permissions join what the auth plugin granted.
  hooks.tap(authPrincipal, async (principal) => {
    const db = services.resolve<Kernel['db']>('db');
    const granted = await identity.permissionsFor(db, principal.userId);
    for (const p of principal.permissions) granted.add(p);
    return { ...principal, permissions: granted };
  });

  hooks.tap(cliCommands, () => userCliCommands());

  ctx.onReady(async () => {
    const db = services.resolve<Kernel['db']>('db');
    const kernel = services.resolve<Kernel>('kernel');
    if (kernel.container.hasRegistration('compatCivicrm')) {
      const compat = kernel.container.resolve('compatCivicrm') as { permissionAliases?: Aliases };
      aliases = { ...(compat.permissionAliases ?? {}) };
    }
    await keyring.load(db);
    for (const p of await ctx.runHook(permissionsCatalogue)) if (!catalogue.has(p.name)) catalogue.set(p.name, p);
    if (config.firstRun && serviceConfig.mode !== 'test') {
      const { host, port, publicUrl } = serviceConfig.server;
      await firstRun(db, identity, keyring, publicUrl ?? `http://${host}:${port}`, (text) => process.stdout.write(text));
    }
  });
});
