/** The core permission catalogue. Other plugins add theirs through the `permissions.catalogue` hook. */
import type { PermissionInfo } from './hooks';

export const CORE_PERMISSIONS: PermissionInfo[] = [
  {
    name: 'administer CRM',
    label: 'CRM: administer',
    description: 'Configure the service; every action without a more specific permission needs it',
  },
  { name: 'access CRM', label: 'CRM: access', description: 'Use the service at all (most read actions need it)' },
  {
    name: 'access AJAX API',
    label: 'CRM: access the AJAX API',
    description: 'Call /crm/ajax/rest (legacy keys grant it for the request)',
  },
  { name: 'view all contacts', label: 'CRM: view all contacts' },
  { name: 'edit all contacts', label: 'CRM: edit all contacts', description: 'Implies viewing them' },
  { name: 'add contacts', label: 'CRM: add contacts' },
  { name: 'delete contacts', label: 'CRM: delete contacts' },
  { name: 'access deleted contacts', label: 'CRM: access deleted contacts', description: 'See contacts in the trash' },
  { name: 'view my contact', label: 'CRM: view my contact' },
  { name: 'edit my contact', label: 'CRM: edit my contact' },
  { name: 'authenticate with api key', label: 'AuthX: authenticate to services with API key' },
  { name: 'authenticate with password', label: 'AuthX: authenticate to services with password' },
  {
    name: 'view debug output',
    label: 'CRM: view debug output',
    description: "See the real message of an unexpected error (APIv4's 500 answer) instead of the generic one",
  },
];
