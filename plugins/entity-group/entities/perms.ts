/** The reference's permissions (§6.2): groups need `edit groups` to write, memberships `edit all contacts`. */
import type { PermissionMap } from '../../entity-core';

const AC = 'access CRM';
const writes = (perm: string): PermissionMap => ({
  get: AC,
  create: { allOf: [AC, perm] },
  update: { allOf: [AC, perm] },
  delete: { allOf: [AC, perm] },
  default: { allOf: [AC, perm] },
  meta: AC,
});

/** Group, GroupNesting and GroupOrganization (the reference gives the last two the group map). */
export const groupPerms = writes('edit groups');
/** GroupContact. */
export const groupContactPerms = writes('edit all contacts');
