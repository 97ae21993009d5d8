/** The permission maps of pledges and their installments. */
import type { PermissionMap } from '../../entity-core';

/** The reference's pledge permissions: read with `access CiviPledge`, written with `edit pledges`. */
export const PLEDGE_RECORDS: PermissionMap = {
  get: { allOf: ['access CRM', 'access pledges'] },
  meta: 'access CRM',
  delete: { allOf: ['access CRM', 'access pledges', 'delete pledges'] },
  default: { allOf: ['access CRM', 'access pledges', 'edit pledges'] },
};

/** An installment touches contributions too: both components' permissions. */
export const PLEDGE_PAYMENTS: PermissionMap = {
  get: { allOf: ['access CRM', 'access pledges', 'access contributions'] },
  meta: 'access CRM',
  delete: { allOf: ['access CRM', 'access pledges', 'delete pledges', 'access contributions', 'delete contributions'] },
  default: { allOf: ['access CRM', 'access pledges', 'edit pledges', 'access contributions', 'edit contributions'] },
};
