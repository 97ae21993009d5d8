/** Permissions shared by OptionGroup and OptionValue. */
import type { PermissionMap } from '../../entity-core';

export const AC = 'access CRM';
export const optionPerms: PermissionMap = {
  get: AC,
  create: { allOf: [AC, { anyOf: ['administer CRM', 'manage event profiles'] }] },
  update: { allOf: [AC, { anyOf: ['administer CRM', 'manage event profiles'] }] },
  delete: 'administer CRM',
  default: 'administer CRM',
};
