/**
 * OAuth entities as entity-core metadata (APIv4 only, as the reference): H5's generic APIv4 actions
 * serve their CRUD; the OAuth-specific actions live in actions.ts. Permissions per reference §6.2 with
 * our spellings (`access CRM`, `administer CRM`).
 */
import type { EntityDef, FieldDef } from '../entity-core';

export const P = {
  CLIENT: 'manage OAuth client',
  SECRETS: 'manage OAuth client secrets',
  AUTH_CODE: 'create OAuth tokens via auth code flow',
  MY_CONTACT_TOKENS: 'manage my OAuth contact tokens',
  ALL_CONTACT_TOKENS: 'manage all OAuth contact tokens',
} as const;

export const OAUTH_PERMISSIONS = [
  {
    name: P.CLIENT,
    label: 'OAuth: manage OAuth client',
    description:
      'Create, change and delete OAuth clients (including their secret, options and tenant) and start grants',
  },
  {
    name: P.SECRETS,
    label: 'OAuth: manage OAuth client secrets',
    description: 'Read and write access tokens, refresh tokens and raw responses of system tokens',
  },
  {
    name: P.AUTH_CODE,
    label: 'OAuth: create tokens via auth code flow',
    description: 'Finish an authorization code flow at /crm/oauth-client/return',
  },
  {
    name: P.MY_CONTACT_TOKENS,
    label: 'OAuth: manage my contact tokens',
    description: "Read and manage the OAuth tokens of one's own contact",
  },
  {
    name: P.ALL_CONTACT_TOKENS,
    label: 'OAuth: manage all contact tokens',
    description: 'Read and manage every contact OAuth token (within contact access); implies the "my" permission',
  },
];

const ts = (name: string, title: string): FieldDef => ({ name, type: 'Timestamp', title, readonly: true });

export const STORAGES = ['OAuthSysToken', 'OAuthContactToken', 'OAuthSessionToken'] as const;
export type Storage = (typeof STORAGES)[number];

export const OAuthClient: EntityDef = {
  name: 'OAuthClient',
  table: 'crm_oauth_client',
  apis: [4],
  labelField: 'guid',
  description: 'A registered OAuth client (a client id and secret at one provider)',
  permissions: {
    meta: 'access CRM',
    get: { anyOf: [P.CLIENT, P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS] },
    default: P.CLIENT,
  },
  fields: [
    { name: 'id', type: 'Int', title: 'Client ID', required: true, readonly: true },
    {
      name: 'provider',
      type: 'String',
      title: 'Provider',
      maxlength: 128,
      required: true,
      apiRequired: true,
      description: 'Name of an OAuthProvider',
    },
    {
      name: 'guid',
      type: 'String',
      title: 'Client ID at the provider',
      maxlength: 128,
      required: true,
      apiRequired: true,
    },
    { name: 'tenant', type: 'String', title: 'Tenant', maxlength: 128, secret: [P.CLIENT] },
    { name: 'secret', type: 'Text', title: 'Client secret', secret: [P.CLIENT] },
    {
      name: 'options',
      type: 'Text',
      title: 'Options (JSON object merged over the provider options)',
      secret: [P.CLIENT],
    },
    { name: 'is_active', type: 'Boolean', title: 'Enabled', apiDefault: 1 },
    ts('created_date', 'Created'),
    ts('modified_date', 'Modified'),
  ],
};

function tokenFields(secretPerms: string[]): FieldDef[] {
  return [
    { name: 'id', type: 'Int', title: 'Token ID', required: true, readonly: true },
    { name: 'tag', type: 'String', title: 'Tag', maxlength: 128 },
    { name: 'client_id', type: 'Int', title: 'Client', fk: 'OAuthClient' },
    { name: 'grant_type', type: 'String', title: 'Grant type', maxlength: 31 },
    { name: 'scopes', type: 'Text', title: 'Scopes', serialize: true },
    { name: 'token_type', type: 'String', title: 'Token type', maxlength: 128 },
    { name: 'access_token', type: 'Text', title: 'Access token', secret: secretPerms },
    { name: 'expires', type: 'Int', title: 'Expires (unix seconds)' },
    { name: 'refresh_token', type: 'Text', title: 'Refresh token', secret: secretPerms },
    { name: 'resource_owner_name', type: 'String', title: 'Resource owner name', maxlength: 128 },
    { name: 'resource_owner', type: 'Text', title: 'Resource owner (JSON)' },
    { name: 'error', type: 'Text', title: 'Last refresh error (JSON: error, error_description, time)' },
    // Unlike the reference, raw is a secret too (it may carry provider-specific secrets).
    { name: 'raw', type: 'Text', title: 'Token response without the tokens (JSON)', secret: secretPerms },
    ts('created_date', 'Created'),
    ts('modified_date', 'Modified'),
  ];
}

export const OAuthSysToken: EntityDef = {
  name: 'OAuthSysToken',
  table: 'crm_oauth_systoken',
  apis: [4],
  labelField: 'tag',
  description: 'A token held by the system (mail accounts, integrations)',
  permissions: {
    meta: 'access CRM',
    create: P.SECRETS,
    update: P.SECRETS,
    save: P.SECRETS,
    replace: P.SECRETS,
    default: P.CLIENT,
  },
  fields: tokenFields([P.SECRETS]),
};

export const OAuthContactToken: EntityDef = {
  name: 'OAuthContactToken',
  table: 'crm_oauth_contact_token',
  apis: [4],
  labelField: 'tag',
  ownerField: 'contact_id',
  description: 'A token held on behalf of a contact; row rules in access.ts',
  permissions: { meta: 'access CRM', default: { anyOf: [P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS] } },
  fields: [
    ...tokenFields([P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS]),
    { name: 'contact_id', type: 'Int', title: 'Contact', fk: 'Contact' },
  ],
};

export const OAuthSessionToken: EntityDef = {
  name: 'OAuthSessionToken',
  table: 'crm_oauth_session_token',
  apis: [4],
  labelField: 'tag',
  description: "A token tied to the caller's session: removed when the session ends",
  permissions: { meta: 'access CRM', default: 'administer CRM' },
  fields: [
    ...tokenFields(['administer CRM']),
    {
      name: 'session_hash',
      type: 'String',
      title: 'Session',
      maxlength: 64,
      readonly: true,
      secret: ['administer CRM'],
    },
  ],
};

export const MailSettings: EntityDef = {
  name: 'MailSettings',
  table: 'crm_mail_settings',
  apis: [4],
  labelField: 'name',
  description: 'A mail account (minimal: enough for the OAuth mail-setup flow)',
  permissions: { meta: 'access CRM', default: 'administer CRM' },
  fields: [
    { name: 'id', type: 'Int', title: 'ID', required: true, readonly: true },
    { name: 'name', type: 'String', title: 'Name', maxlength: 255 },
    { name: 'domain', type: 'String', title: 'Email domain', maxlength: 255 },
    { name: 'localpart', type: 'String', title: 'Localpart', maxlength: 255 },
    { name: 'return_path', type: 'String', title: 'Return path', maxlength: 255 },
    {
      name: 'protocol',
      type: 'String',
      title: 'Protocol',
      maxlength: 32,
      options: { IMAP: 'IMAP', POP3: 'POP3', Maildir: 'Maildir', Localdir: 'Localdir' },
    },
    { name: 'server', type: 'String', title: 'Server', maxlength: 255 },
    { name: 'port', type: 'Int', title: 'Port' },
    { name: 'username', type: 'String', title: 'Username', maxlength: 255 },
    { name: 'password', type: 'Text', title: 'Password', secret: ['administer CRM'] },
    { name: 'is_ssl', type: 'Boolean', title: 'Use SSL', apiDefault: 0 },
    { name: 'auth', type: 'String', title: 'Authentication (Password, XOAuth2)', maxlength: 32 },
    { name: 'is_active', type: 'Boolean', title: 'Enabled', apiDefault: 1 },
    ts('created_date', 'Created'),
  ],
};

export const ENTITIES: EntityDef[] = [OAuthClient, OAuthSysToken, OAuthContactToken, OAuthSessionToken, MailSettings];
