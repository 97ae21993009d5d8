/** Container names the users plugin registers (declaration merging on the kernel's Cradle). */
import type { Authenticator } from './authenticator';
import type { PermissionInfo } from './hooks';
import type { Keyring } from './keyring';
import type { SessionStore } from './sessions';
import type { IdentityStore } from './store';
import type { Throttle } from './throttle';

declare module '../../kernel/types' {
  interface Cradle {
    identity: IdentityStore;
    keyring: Keyring;
    authenticator: Authenticator;
    sessions: SessionStore;
    loginThrottle: Throttle;
    /** The permission catalogue (core + every `permissions.catalogue` contribution), filled at ready. */
    permissionCatalogue: ReadonlyMap<string, PermissionInfo>;
  }
}

/**
 * Principal attribute an auth plugin sets when authentication already loaded the user's role
 * permissions (a Set): the users plugin's `auth.principal` tap then skips its own query.
 */
export const ROLE_PERMISSIONS = 'users.rolePermissions';
