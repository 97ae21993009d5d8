/** StatusPreference: how a status check (System.check) is hushed or disabled (4.7.0); severity by name. */
import type { EntityDef } from '../../entity-core';

/** The status checks' severities (PSR-3 levels), by their number; APIv3 takes the name, APIv4 `:name`. */
export const SEVERITIES: Record<string, string> = {
  0: 'debug',
  1: 'info',
  2: 'notice',
  3: 'warning',
  4: 'error',
  5: 'critical',
  6: 'alert',
  7: 'emergency',
};

const StatusPreference: EntityDef = {
  name: 'StatusPreference',
  table: 'crm_status_pref',
  description: 'Preferences controlling status checks called in System.check',
  labelField: 'name',
  permissions: { default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'Status Preference ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Status Check Name', maxlength: 255, required: true, apiRequired: true },
    {
      name: 'hush_until',
      type: 'Date',
      title: 'Snooze Status Notifications Until',
      description: 'expires ignore_severity. NULL never hushes.',
    },
    {
      name: 'ignore_severity',
      type: 'Int',
      title: 'Ignore Severity',
      default: 1,
      apiDefault: 1,
      options: SEVERITIES,
      description: 'Hush messages up to and including this severity.',
    },
    { name: 'prefs', type: 'String', title: 'Status Preferences', maxlength: 255 },
    { name: 'check_info', type: 'String', title: 'Check Info', maxlength: 255 },
    { name: 'is_active', type: 'Boolean', title: 'Check Is Active', required: true, default: true, apiDefault: 1 },
  ],
  indexes: [{ name: 'UI_status_pref_name', fields: ['name'] }],
};

export default StatusPreference;
