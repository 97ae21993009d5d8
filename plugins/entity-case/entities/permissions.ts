/** The case entities' permission maps, after the reference's (our names; compat-civicrm maps the reference's). */
import type { PermissionMap } from '../../entity-core';

/** Either case-reading permission; which cases a holder of only the first sees is row access (register.ts). */
export const READ_CASES = { anyOf: ['access own cases', 'access all cases'] };

export const CASE_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', READ_CASES] },
  meta: 'access CRM',
  create: { allOf: ['access CRM', 'open cases'] },
  delete: { allOf: ['access CRM', 'delete cases'] },
  default: { allOf: ['access CRM', READ_CASES] },
};

export const CASE_TYPE_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', READ_CASES] },
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'administer cases'] },
};
