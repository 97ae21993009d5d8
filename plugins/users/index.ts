/** What other plugins import from users: identities, credentials, sessions, roles and its hooks. */
export { contactRowAccess, contactRowRule, type ContactAccess } from './acl';
export { Authenticator, THROTTLED, type CredType, type Guard, type UserMode } from './authenticator';
export { permissionAliases, permissionsCatalogue, type PermissionInfo } from './hooks';
export { SessionStore } from './sessions';
export { IdentityStore } from './store';
export { Throttle } from './throttle';
export { ROLE_PERMISSIONS } from './types';
export { issueJwt } from './jwt';
export { Keyring } from './keyring';
