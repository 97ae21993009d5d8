/** The mailing entities' permission maps (the reference's CiviMail permissions, 4.6 workflow ones included). */
import type { PermissionMap } from '../../entity-core';

/** Anyone working on mailings: the all-in-one `access CiviMail`, or one of the 4.6 workflow permissions. */
const ANY_MAILING = { anyOf: ['access CiviMail', 'create mailings', 'schedule mailings', 'approve mailings'] };

export const MAILING_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', ANY_MAILING] },
  create: { allOf: ['access CRM', { anyOf: ['access CiviMail', 'create mailings'] }] },
  update: { allOf: ['access CRM', { anyOf: ['access CiviMail', 'create mailings'] }] },
  delete: { allOf: ['access CRM', 'access CiviMail'] },
  submit: { allOf: ['access CRM', { anyOf: ['access CiviMail', 'schedule mailings'] }] },
  default: { allOf: ['access CRM', 'access CiviMail'] },
  meta: 'access CRM',
};

/** Records that belong to a mailing (groups, recipients, jobs, A/B tests): read and written with it. */
export const MAILING_PART_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', ANY_MAILING] },
  default: { allOf: ['access CRM', { anyOf: ['access CiviMail', 'create mailings'] }] },
  meta: 'access CRM',
};

/** Jobs and recipient lists follow from scheduling: writing them directly needs the scheduling permission. */
export const SCHEDULING_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', ANY_MAILING] },
  default: { allOf: ['access CRM', { anyOf: ['access CiviMail', 'schedule mailings'] }] },
  meta: 'access CRM',
};

/** Headers, footers and the other components: read by mailing authors, written by administrators. */
export const COMPONENT_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', ANY_MAILING] },
  default: { allOf: ['access CRM', 'access CiviMail'] },
  meta: 'access CRM',
};

/** The send queue: written by the sender (process_mailing runs trusted), read by mailing staff. */
export const QUEUE_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', 'access CiviMail'] },
  default: 'administer CRM',
  meta: 'access CRM',
};
