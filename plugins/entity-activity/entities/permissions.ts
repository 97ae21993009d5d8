/** §6.2: activity and activity_contact share one permission map. */
import type { PermissionMap } from '../../entity-core';

export const ACTIVITY_PERMISSIONS: PermissionMap = {
  get: 'access CRM',
  create: { allOf: ['access CRM', 'view all activities'] },
  update: { allOf: ['access CRM', 'view all activities'] },
  delete: { allOf: ['access CRM', 'delete activities'] },
  default: { allOf: ['access CRM', 'view all activities'] },
  meta: 'access CRM',
};
