/** Field builders and permissions the payment entities share. */
import type { FieldDef, PermissionMap } from '../../entity-core';

export const flag = (name: string, title: string, fallback: boolean, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Boolean',
  title,
  required: true,
  default: fallback,
  apiDefault: fallback ? 1 : 0,
  ...extra,
});

export const text = (name: string, title: string, maxlength = 255, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'String',
  title,
  maxlength,
  ...extra,
});

/** Who may see processors (contribution staff, to pick one for a page) and who configures them (administrators). */
export const PROCESSOR_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', 'access contributions'] },
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'administer CRM'] },
};

/** Who may read a processor's password and signature: administrators only. */
export const SECRET_HOLDERS = ['administer CRM'];
