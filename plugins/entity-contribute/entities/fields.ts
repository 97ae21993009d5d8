/** Field builders the financial and contribution entities share. */
import type { FieldDef, PermissionMap } from '../../entity-core';
export { idField as id, flagField as flag, textField as text } from '../../entity-core';

export const money = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Money',
  title,
  ...extra,
});

export const currency: FieldDef = {
  name: 'currency',
  type: 'String',
  title: 'Currency',
  maxlength: 3,
  apiDefault: 'USD',
};

/** The reference's financial settings: read with `access CiviContribute`, changed by administrators. */
export const FINANCIAL_SETTINGS: PermissionMap = {
  get: { allOf: ['access CRM', 'access contributions'] },
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'administer CRM'] },
};

/** The records of money: read with `access CiviContribute`, written with `edit contributions`. */
export const FINANCIAL_RECORDS: PermissionMap = {
  get: { allOf: ['access CRM', 'access contributions'] },
  meta: 'access CRM',
  delete: { allOf: ['access CRM', 'access contributions', 'delete contributions'] },
  default: { allOf: ['access CRM', 'access contributions', 'edit contributions'] },
};
