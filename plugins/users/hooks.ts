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

/**
 * Once at ready: contribute permission-name aliases (another system's name → ours), e.g. the
 * reference's `access CiviCRM` for `access CRM`. compat-civicrm taps it when enabled.
 * @example hooks.tap(permissionAliases, () => ({ 'access CiviCRM': 'access CRM' }));
 */
export const permissionAliases = defineHook.collect<Readonly<Record<string, string>>, []>(
  'permissions.aliases',
  'Once at ready: contribute permission-name aliases (other name → our permission name)',
);
