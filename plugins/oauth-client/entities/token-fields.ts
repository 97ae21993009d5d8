/** Fields shared by the OAuth token entities. */
import type { FieldDef } from '../../entity-core';

export const ts = (name: string, title: string): FieldDef => ({
  name,
  type: 'Timestamp',
  title,
  readonly: true,
  required: true,
  default: { sql: 'now' },
});

export function tokenFields(secretPerms: string[]): FieldDef[] {
  return [
    { name: 'id', type: 'Int', title: 'Token ID', required: true, readonly: true },
    { name: 'tag', type: 'String', title: 'Tag', maxlength: 128 },
    { name: 'client_id', type: 'Int', title: 'Client', fk: 'OAuthClient', onDelete: 'cascade' },
    { name: 'grant_type', type: 'String', title: 'Grant type', maxlength: 31 },
    { name: 'scopes', type: 'Text', title: 'Scopes', serialize: true },
    { name: 'token_type', type: 'String', title: 'Token type', maxlength: 128 },
    { name: 'access_token', type: 'Text', title: 'Access token', secret: secretPerms, encrypted: true },
    { name: 'expires', type: 'Int', title: 'Expires (unix seconds)', default: 0 },
    { name: 'refresh_token', type: 'Text', title: 'Refresh token', secret: secretPerms, encrypted: true },
    { name: 'resource_owner_name', type: 'String', title: 'Resource owner name', maxlength: 128 },
    { name: 'resource_owner', type: 'Json', title: 'Resource owner' },
    { name: 'error', type: 'Json', title: 'Last refresh error (error, error_description, time)' },
    // Unlike the reference, raw is a secret too (it may carry provider-specific secrets).
    { name: 'raw', type: 'Json', title: 'Token response without the tokens', secret: secretPerms, encrypted: true },
    ts('created_date', 'Created'),
    ts('modified_date', 'Modified'),
  ];
}
