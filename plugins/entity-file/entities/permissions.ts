/**
 * File and EntityFile need `access CRM`; which rows a caller reads or writes follows the record the file is
 * attached to (its API permission and its row access: register.ts).
 */
import type { PermissionMap } from '../../entity-core';

export const FILE_PERMISSIONS: PermissionMap = {
  get: 'access CRM',
  create: 'access CRM',
  update: 'access CRM',
  delete: 'access CRM',
  default: 'access CRM',
  meta: 'access CRM',
};

/** Records files may be attached to, by entity and the reference's table name (missing ones are skipped). */
export const ATTACHABLE: Record<string, string> = {
  Activity: 'civicrm_activity',
  Mailing: 'civicrm_mailing',
  Contact: 'civicrm_contact',
  Note: 'civicrm_note',
  Case: 'civicrm_case',
  Event: 'civicrm_event',
  Contribution: 'civicrm_contribution',
};
