/** Field builders and permission maps the event entities share. */
import type { FieldDef, PermissionMap } from '../../entity-core';
export { idField as id, flagField as flag, textField as text } from '../../entity-core';

export const longText = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Text',
  title,
  ...extra,
});

export const when = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Timestamp',
  title,
  ...extra,
});

export const int = (name: string, title: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name,
  type: 'Int',
  title,
  ...extra,
});

/** Events and their location blocks: read with `access events` or `view events`, written with `edit events`. */
export const EVENT_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', { anyOf: ['access events', 'view events'] }] },
  meta: 'access CRM',
  delete: { allOf: ['access CRM', 'access events', 'delete events'] },
  default: { allOf: ['access CRM', 'access events', 'edit events'] },
};

/** Participants and their payments: read with `view participants`, written with `edit participants`. */
export const PARTICIPANT_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', 'access events', 'view participants'] },
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'access events', 'edit participants'] },
};

/** Participant statuses are configuration: read by event staff, changed by administrators. */
export const STATUS_PERMISSIONS: PermissionMap = {
  get: { allOf: ['access CRM', { anyOf: ['access events', 'view events'] }] },
  meta: 'access CRM',
  default: { allOf: ['access CRM', 'administer CRM'] },
};
