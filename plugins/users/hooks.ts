/** Hooks the users plugin owns. */
import { defineHook } from '../../kernel';

/** A permission other plugins declare, with the label shown to administrators. */
export interface PermissionInfo {
  name: string;
  label: string;
  description?: string;
}

/**
 * Once at ready: contribute permissions to the catalogue (`crm role list --catalogue`, grant checks).
 * @example hooks.tap(permissionsCatalogue, () => [{ name: 'access CiviEvent', label: 'CiviEvent: access' }]);
 */
export const permissionsCatalogue = defineHook.collect<PermissionInfo, []>(
  'permissions.catalogue',
  'Once at ready: contribute permissions (name, label) to the catalogue',
);
