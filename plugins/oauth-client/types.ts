/** Shapes shared by oauth-client, its grant plugins and provider contributors. */
import type * as oauth from 'oauth4webapi';

/** Options of a provider (and, merged over them, of a client's `options` column). */
export interface ProviderOptions {
  urlAuthorize?: string;
  urlAccessToken?: string;
  /** A URL answering the owner's details for the access token, or `{{use_id_token}}`. */
  urlResourceOwnerDetails?: string | null;
  /** JWKS used to verify id_tokens (our addition; `{{tenant}}` is replaced). */
  urlJwks?: string;
  /** Expected `iss` of id_tokens, when the provider has one issuer. */
  issuer?: string;
  scopes?: string[];
  /** Joins scopes; League's generic default is `,`. */
  scopeSeparator?: string;
  accessType?: string;
  prompt?: string;
  tenancy?: boolean;
  responseModes?: string[];
  /** How the client authenticates at the token endpoint (default `client_secret_post`). */
  clientAuth?: 'client_secret_post' | 'client_secret_basic' | 'none';
  /** Owner field holding its id (default `id`; `sub` for id_tokens). */
  responseResourceOwnerId?: string;
  /** Extra query parameters for the authorization URL. */
  authorizationParams?: Record<string, string>;
  redirectUri?: string;
  [key: string]: unknown;
}

/** A provider as files, plugins and the grant catalogue describe it. */
export interface ProviderRecord {
  name: string;
  title: string;
  /** Provider implementation (see `oauth.providerClasses`); default `generic`. */
  class?: string;
  tags?: string[];
  options: ProviderOptions;
  contactTemplate?: Record<string, unknown>;
  mailSettingsTemplate?: Record<string, unknown>;
  templates?: Record<string, unknown>;
  permissions?: Record<string, unknown>;
  /** Where it came from: `providers/gmail.dist.json`, `private:oauth-providers/x.json`, `plugin:<name>`. Filled in by oauth-client. */
  source?: string;
}

/** What oauth-client needs of an OAuth client (the future `OAuthClient` row). */
export interface ClientRecord {
  id?: number;
  provider: string;
  /** The remote client_id. */
  guid: string;
  secret?: string | null;
  tenant?: string | null;
  /** Overrides of the provider's options. */
  options?: ProviderOptions | null;
}

/** A token endpoint answer as the provider sent it (token_type keeps its case). */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  expires?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  [key: string]: unknown;
}

/** The fields a token record (OAuthSysToken, OAuthContactToken, OAuthSessionToken) is built from. */
export interface TokenRecord {
  client_id: number | null;
  grant_type: string;
  tag: string | null;
  scopes: string[];
  token_type: string | null;
  access_token: string;
  refresh_token: string | null;
  /** Absolute unix seconds; null when the provider gave no lifetime. */
  expires: number | null;
  resource_owner_name: string | null;
  resource_owner: Record<string, unknown> | null;
  /** The response minus access_token, refresh_token and id_token (those live in their own columns or in resource_owner). */
  raw: Record<string, unknown>;
  error?: Record<string, unknown> | null;
}

/** Everything a token request needs, resolved: the provider, its implementation and the client. */
export interface GrantInput {
  provider: ProviderRecord;
  driver: ProviderDriver;
  client: ClientRecord;
  /** Effective scopes: the caller's, or the provider's default. */
  scopes: string[];
  /** Grant-specific input (`username`/`password`, `code`/`codeVerifier`/`redirectUri`, `refreshToken`). */
  params: Record<string, unknown>;
}

/** oauth4webapi arguments for one provider + client. */
export interface Endpoint {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  options: oauth.TokenEndpointRequestOptions;
}

/** Tools oauth-client lends to grant plugins, so they share error handling and transport rules. */
export interface GrantTools {
  /** The oauth4webapi arguments for the provider's token endpoint. */
  endpoint(input: GrantInput): Endpoint;
  /** Runs a token request made with oauth4webapi and returns the validated answer, or throws an `E_OAUTH_*` KernelError. */
  send(input: GrantInput, perform: (e: Endpoint) => Promise<Response>): Promise<TokenResponse>;
  /** The redirect URI for this client (input, client/provider option, plugin config, or publicUrl + return route). */
  redirectUri(input: GrantInput): string;
}

export interface AuthorizationStart {
  url: string;
  state: string;
  /** PKCE verifier: keep it with the state, send it back with the code. */
  codeVerifier: string;
  redirectUri: string;
  scopes: string[];
}

/** A grant implementation, contributed through `oauth.grants`, keyed by grant type. */
export interface GrantHandler {
  /** OAuth grant_type: `authorization_code`, `password`, `client_credentials`, `refresh_token`. */
  grantType: string;
  /** Other names callers may use (API action names such as `clientCredential`). */
  aliases?: string[];
  description?: string;
  /** Redirect-based grants: builds the URL the user is sent to. */
  authorize?(input: GrantInput, tools: GrantTools): Promise<AuthorizationStart>;
  /** The token request. */
  request(input: GrantInput, tools: GrantTools): Promise<TokenResponse>;
}

/** A resource owner as resolved for a token. */
export interface ResolvedOwner {
  owner: Record<string, unknown>;
  name: string | null;
}

/** A provider implementation bound to one provider record. */
export interface ProviderDriver {
  readonly provider: ProviderRecord;
  /** Provider options with the client's options merged over them. */
  options(client: ClientRecord): ProviderOptions;
  authorizeUrl(client: ClientRecord): string;
  tokenUrl(client: ClientRecord): string;
  /** Extra authorization-URL parameters (prompt, access_type, …). */
  authorizationParams(client: ClientRecord, requested: { prompt?: string | null }): Record<string, string>;
  /** The resource owner for a fresh token, or null when there is none to get. */
  resourceOwner(client: ClientRecord, token: TokenResponse, io: DriverIo): Promise<ResolvedOwner | null>;
}

/** I/O a driver may use: HTTP with the plugin's timeout and transport rules, and id_token verification. */
export interface DriverIo {
  fetchJson(url: string, accessToken: string): Promise<Record<string, unknown>>;
  verifyIdToken(
    idToken: string,
    opts: { client: ClientRecord; options: ProviderOptions; tokenUrl: string },
  ): Promise<Record<string, unknown>>;
  warn(msg: string, details?: Record<string, unknown>): void;
}

/** A provider implementation, contributed through `oauth.providerClasses`, keyed by name. */
export interface ProviderClass {
  name: string;
  description?: string;
  create(provider: ProviderRecord): ProviderDriver;
}

declare module '../../kernel/types' {
  interface Cradle {
    /** oauth-client: the merged provider list (see providers.ts). */
    oauthProviders: import('./providers').ProviderRegistry;
    /** oauth-client: authorization URLs, token requests, refresh (see tokens.ts). */
    oauthTokens: import('./tokens').OAuthTokens;
  }
}
