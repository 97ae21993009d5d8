/** Reference data: read with `access CRM` (4.7.0 for countries), written by administrators. */
import type { PermissionMap } from '../../entity-core';

export const GEOGRAPHY_PERMISSIONS: PermissionMap = {
  get: 'access CRM',
  create: 'administer CRM',
  update: 'administer CRM',
  delete: 'administer CRM',
  default: 'administer CRM',
  meta: 'access CRM',
};
