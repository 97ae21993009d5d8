/**
 * OAuth permissions (reference §6.2, with our spellings `access CRM`, `administer CRM`) and the token
 * storages. The entities themselves are metadata files in entities/ (APIv4 only, as the reference).
 */

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

export const STORAGES = ['OAuthSysToken', 'OAuthContactToken', 'OAuthSessionToken'] as const;
export type Storage = (typeof STORAGES)[number];
