/** Error codes of the OAuth client; bindings map the status, messages never carry secrets or tokens. */
import { registerErrorCodes } from '../../kernel';

export const oauthErrorCodes = {
  E_OAUTH_PROVIDER_UNKNOWN: { status: 404, expose: true, meaning: 'No OAuth provider has this name' },
  E_OAUTH_PROVIDER_INVALID: {
    status: 500,
    expose: true,
    meaning: 'A provider file or hook contribution is malformed (the message names the file or plugin)',
  },
  E_OAUTH_PROVIDER_CLASS: {
    status: 500,
    expose: true,
    meaning: "A provider's class names no registered provider implementation",
  },
  E_OAUTH_GRANT_UNKNOWN: { status: 400, expose: true, meaning: 'No enabled grant plugin handles this grant type' },
  E_OAUTH_CLIENT_INVALID: {
    status: 400,
    expose: true,
    meaning: 'The OAuth client record or grant input is incomplete (client_id, redirect URI, code…)',
  },
  E_OAUTH_PROVIDER_ERROR: {
    status: 502,
    expose: true,
    meaning: "The provider refused the request (details: the provider's error and error_description)",
  },
  E_OAUTH_UNREACHABLE: {
    status: 502,
    expose: true,
    meaning: 'The provider could not be reached or did not answer in time',
  },
  E_OAUTH_RESPONSE_INVALID: {
    status: 502,
    expose: true,
    meaning: 'The provider answered with something that is not a valid token response',
  },
  E_OAUTH_ID_TOKEN: {
    status: 502,
    expose: true,
    meaning: 'An id_token failed verification (signature, issuer, audience, expiry)',
  },
  E_OAUTH_INSECURE: {
    status: 400,
    expose: true,
    meaning: 'Refused: credentials over plain HTTP, or an unverifiable id_token from a non-HTTPS token URL',
  },
  E_OAUTH_NO_REFRESH_TOKEN: {
    status: 409,
    expose: true,
    meaning: 'The token has no refresh_token, so it cannot be refreshed',
  },
  E_OAUTH_CLIENT_NOT_FOUND: {
    status: 404,
    expose: true,
    meaning: 'The selection names no OAuth client, or more than one (grant actions need exactly one)',
  },
  E_OAUTH_STATE: {
    status: 400,
    expose: true,
    meaning: 'The authorization state is unknown, expired, already used, or belongs to another session or browser',
  },
  E_OAUTH_LANDING: {
    status: 400,
    expose: true,
    meaning: "The landing URL is neither on the service's own origin nor in pluginConfig.oauth-client.landingUrls",
  },
  E_OAUTH_NO_SESSION: { status: 400, expose: true, meaning: 'OAuthSessionToken storage needs a caller with a session' },
} as const;

export type OAuthErrorCode = keyof typeof oauthErrorCodes;

registerErrorCodes('oauth-client', oauthErrorCodes);
