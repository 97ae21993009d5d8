/** Field builders and the permission maps the membership entities share. */
import type { PermissionMap } from '../../entity-core';
export { idField as id, flagField as flag, textField as text } from '../../entity-core';

/** The reference's membership permissions: read with `access CiviMember`, written with `edit memberships`. */
export const MEMBER_RECORDS: PermissionMap = {
  get: { allOf: ['access CRM', 'access memberships'] },
  meta: 'access CRM',
  delete: { allOf: ['access CRM', 'access memberships', 'delete memberships'] },
  default: { allOf: ['access CRM', 'access memberships', 'edit memberships'] },
};

/** A membership payment also touches a contribution: both components' permissions. */
export const MEMBER_PAYMENTS: PermissionMap = {
  get: { allOf: ['access CRM', 'access memberships', 'access contributions'] },
  meta: 'access CRM',
  delete: {
    allOf: ['access CRM', 'access memberships', 'delete memberships', 'access contributions', 'delete contributions'],
  },
  default: {
    allOf: ['access CRM', 'access memberships', 'edit memberships', 'access contributions', 'edit contributions'],
  },
};

/** The units a status rule adjusts its events by. */
export const ADJUST_UNITS = { day: 'day', month: 'month', year: 'year' };
/** The membership dates a status rule starts or ends at. */
export const EVENT_DATES = { start_date: 'Member Start Date', end_date: 'Member End Date', join_date: 'Member Since' };
