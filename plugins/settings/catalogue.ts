/** The settings catalogue: settings plugins declare, with a type and a default; the core ones are below. */
import type { Knex } from 'knex';
import { defineHook, KernelError } from '../../kernel';

export interface SettingSpec {
  name: string;
  type: 'String' | 'Integer' | 'Boolean' | 'Array';
  default: unknown;
  title: string;
  description?: string;
  /** A per-contact setting (4.7): stored for the contact given (or the caller's), falling back to the domain's. */
  isContact?: boolean;
  group?: string;
}

/**
 * Once at ready: contribute setting declarations (name, type, default, title).
 * @example hooks.tap(settingsCatalogue, () => [{ name: 'mailing_backend', type: 'Array', default: [], title: 'Outbound email' }]);
 */
export const settingsCatalogue = defineHook.collect<SettingSpec, []>(
  'settings.catalogue',
  'Once at ready: contribute settings (name, type, default, title, isContact) that Setting.get/create manage',
);

/**
 * After settings are stored or reverted (not `fill`: it stores the defaults), inside the writing transaction:
 * (transaction, names). A tap that acts on a setting (audit-log's `logging`) does its work there, so it
 * commits or rolls back with the write.
 */
export const settingsChanged = defineHook.series<[Knex, string[]]>(
  'settings.changed',
  'After Setting create/set/revert, in the writing transaction: (transaction, setting names)',
);

/** Settings from the reference's settings files that clients read or this service can honour. */
export const CORE_SETTINGS: SettingSpec[] = [
  { name: 'lcMessages', type: 'String', default: 'en_US', title: 'Default Language', group: 'localization' },
  { name: 'defaultCurrency', type: 'String', default: 'USD', title: 'Default Currency', group: 'localization' },
  {
    name: 'dateformatDatetime',
    type: 'String',
    default: '%B %E%f, %Y %l:%M %P',
    title: 'Date Format: Complete Date and Time',
    group: 'localization',
  },
  {
    name: 'dateformatFull',
    type: 'String',
    default: '%B %E%f, %Y',
    title: 'Date Format: Complete Date',
    group: 'localization',
  },
  { name: 'defaultContactCountry', type: 'String', default: null, title: 'Default Country', group: 'localization' },
  { name: 'countryLimit', type: 'Array', default: [], title: 'Available Countries', group: 'localization' },
  { name: 'max_attachments', type: 'Integer', default: 3, title: 'Maximum Attachments', group: 'core' },
  { name: 'enable_components', type: 'Array', default: [], title: 'Enable Components', group: 'core' },
  {
    name: 'contact_ajax_check_similar',
    type: 'Boolean',
    default: true,
    title: 'Check for Similar Contacts',
    group: 'core',
  },
  { name: 'enableSSL', type: 'Boolean', default: false, title: 'Force Secure URLs (SSL)', group: 'core' },
  {
    name: 'navigation',
    type: 'String',
    default: null,
    title: 'Navigation menu (per contact)',
    isContact: true,
    group: 'personal',
  },
  {
    name: 'preferred_language',
    type: 'String',
    default: null,
    title: 'Preferred language (per contact)',
    isContact: true,
    group: 'personal',
  },
];

function invalid(message: string, field?: string): KernelError {
  return new KernelError('E_INVALID_PARAMS', message, {
    details: { error_code: 'invalid value', ...(field ? { error_field: field } : {}) },
  });
}

/** A value for a setting, checked against its type (numbers and 0/1 accepted where the reference takes them). */
export function checkValue(spec: SettingSpec, value: unknown): unknown {
  if (value === null) return null;
  switch (spec.type) {
    case 'Integer':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
      throw invalid(`${spec.name} must be an integer`, spec.name);
    case 'Boolean':
      if ([true, 1, '1', 'true'].includes(value as never)) return true;
      if ([false, 0, '0', 'false', ''].includes(value as never)) return false;
      throw invalid(`${spec.name} must be a boolean`, spec.name);
    case 'Array':
      if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) return value;
      throw invalid(`${spec.name} must be a list`, spec.name);
    default:
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      throw invalid(`${spec.name} must be a string`, spec.name);
  }
}
