/** Field builders and permissions the payment entities share. */
import type { PermissionMap } from '../../entity-core';
export { flagField as flag, textField as text } from '../../entity-core';

/** Who may see processors (contribution staff, to pick one for a page) and who configures them (administrators). */
export const PROCESSOR_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', 'access contributions'] },
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'administer CRM'] },
};

/** Who may read a processor's password and signature: administrators only. */
export const SECRET_HOLDERS = ['administer CRM'];
