/** Field builders and permissions the price entities share. */
import type { FieldDef, PermissionMap } from '../../entity-core';
export { idField as id, flagField as flag, textField as text } from '../../entity-core';

export const longText = (name: string, title: string): FieldDef => ({ name, type: 'Text', title });

export const visibility = (title: string): FieldDef => ({
  name: 'visibility_id',
  type: 'Int',
  title,
  default: 1,
  apiDefault: 1,
  optionGroup: 'visibility',
});

export const financialType: FieldDef = {
  name: 'financial_type_id',
  type: 'Int',
  title: 'Financial Type ID',
  fk: 'FinancialType',
  onDelete: 'set null',
  pseudoEntity: { entity: 'FinancialType', labelField: 'name', nameField: 'name' },
};

/**
 * Price sets are configuration: anyone with `access CRM` reads them (a registration or contribution form shows
 * them), administrators change them.
 */
export const PRICE_SETTINGS: PermissionMap = {
  get: 'access CRM',
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'administer CRM'] },
};
