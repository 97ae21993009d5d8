/** Managing ACLs is administration (§6.2 defaults: administer CRM); reading them too. */
import type { PermissionMap } from '../../entity-core';

export const ACL_PERMISSIONS: PermissionMap = { default: 'administer CRM', meta: 'access CRM' };
