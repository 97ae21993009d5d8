/** Field builders the financial and contribution entities share. */
import type { FieldDef, PermissionMap } from '../../entity-core';

export const id = (title: string, uniqueName?: string): FieldDef => ({
  name: 'id',
  type: 'Int',
  title,
  required: true,
  readonly: true,
  ...(uniqueName ? { uniqueName } : {}),
});

export const flag = (name: string, title: string, fallback: boolean): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: fallback,
  apiDefault: fallback ? 1 : 0,
});

export const money = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Money',
  title,
  ...extra,
});

export const text = (name: string, title: string, maxlength = 255, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'String',
  title,
  maxlength,
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
