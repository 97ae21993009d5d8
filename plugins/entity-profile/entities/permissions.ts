/** Who administers profiles (UFGroup, UFField, UFJoin): read with `access CRM`, written with `administer CRM`. */
import type { PermissionMap } from '../../entity-core';

export const PROFILE_ADMIN: PermissionMap = { get: 'access CRM', meta: 'access CRM', default: 'administer CRM' };
