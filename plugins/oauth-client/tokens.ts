/**
 * The `oauthTokens` service: authorization URLs, token requests through the grant registry, refresh,
 * and the token record each yields. Token requests use oauth4webapi (through {@link GrantTools});
 * id_tokens are verified with jose. Stateless and database-free, so any storage (system, contact,
 * session tokens) and any instance can use it; persisting state and tokens is the caller's job.
 */
import * as oauth from 'oauth4webapi';
import type { Logger } from '../../kernel';
import { verifyIdToken } from './id-token';
import type { ProviderRegistry } from './providers';
import { buildTokenRecord, mergeRefreshed, needsRefresh } from './token-record';
import type {
  AuthorizationStart,
  ClientRecord,
  DriverIo,
  Endpoint,
  GrantHandler,
  GrantInput,
  GrantTools,
  ProviderRecord,
  TokenRecord,
  TokenResponse,
} from './types';
import { checkedProviderUrl, tokenEndpointAnswer } from './transport';
import { KernelError, replaceTenant } from './util';

export const RETURN_PATH = '/crm/oauth-client/return';

export interface TokenServiceOptions {
  providers: ProviderRegistry;
  grants: () => Map<string, GrantHandler>;
  log: Logger;
  timeoutMs: number;
  allowInsecureHttp: boolean;
  redirectUri?: string;
  publicUrl?: string;
  /** Unix seconds; tests pin it. */
  now?: () => number;
}

export interface GrantRequest {
  client: ClientRecord;
  /** Defaults to the client's provider. */
  provider?: string | ProviderRecord;
  /** Scopes to ask for; a string is one scope; empty or absent means the provider's defaults. */
  scopes?: string[] | string | null;
  /** Grant-specific input. */
  params?: Record<string, unknown>;
  tag?: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class OAuthTokens implements GrantTools {
  constructor(private readonly opts: TokenServiceOptions) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Math.floor(Date.now() / 1000);
  }

  /** Grant types (and aliases) the enabled grant plugins handle. */
  grantTypes(): string[] {
    return [...this.opts.grants().keys()].sort();
  }

  grant(name: string): GrantHandler {
    const g = this.opts.grants().get(name);
    if (!g)
      throw new KernelError(
        'E_OAUTH_GRANT_UNKNOWN',
        `No enabled grant plugin handles the grant type "${name}" (known: ${this.grantTypes().join(', ') || 'none'})`,
        { details: { grant: name } },
      );
    return g;
  }

  /** Resolves provider, implementation, client and effective scopes; checks the client is usable. */
  async prepare(req: GrantRequest): Promise<GrantInput> {
    const client = req.client;
    if (!isObject(client) || typeof client.guid !== 'string' || !client.guid) {
      throw new KernelError(
        'E_OAUTH_CLIENT_INVALID',
        'OAuth: missing client (an OAuth client with a client id, "guid", is required)',
      );
    }
    const providerName = req.provider ?? client.provider;
    const provider = typeof providerName === 'string' ? await this.opts.providers.get(providerName) : providerName;
    if (!provider) throw new KernelError('E_OAUTH_CLIENT_INVALID', 'OAuth: the client names no provider');
    const driver = await this.opts.providers.driver(provider);
    const requested = typeof req.scopes === 'string' ? [req.scopes] : (req.scopes ?? []);
    const scopes = requested.length ? [...requested] : [...(driver.options(client).scopes ?? [])];
    return { provider, driver, client, scopes, params: { ...(req.params ?? {}) } };
  }

  /** Starts a redirect grant (authorization_code by default): the URL, state and PKCE verifier. */
  async authorizationUrl(req: GrantRequest & { grantType?: string }): Promise<AuthorizationStart> {
    const handler = this.grant(req.grantType ?? 'authorization_code');
    if (!handler.authorize)
      throw new KernelError('E_OAUTH_GRANT_UNKNOWN', `The grant "${handler.grantType}" has no authorization step`);
    return handler.authorize(await this.prepare(req), this);
  }

  /** Runs a grant's token request and computes the token record (owner included). */
  async fetchToken(grantType: string, req: GrantRequest): Promise<TokenRecord> {
    const handler = this.grant(grantType);
    const input = await this.prepare(req);
    const response = await handler.request(input, this);
    const owner = await input.driver.resourceOwner(input.client, response, this.driverIo(input.provider.name));
    return buildTokenRecord({
      response,
      grantType: handler.grantType,
      requestedScopes: input.scopes,
      scopeSeparator: input.driver.options(input.client).scopeSeparator ?? ',',
      clientId: input.client.id ?? null,
      tag: req.tag ?? null,
      owner,
      now: this.now(),
    });
  }

  /**
   * Refreshes a stored token and returns it merged with the answer (see `mergeRefreshed`). A token
   * without refresh_token fails before any request. Persisting it (under a row lock) is the caller's job.
   */
  async refresh<T extends Partial<TokenRecord>>(req: {
    client: ClientRecord;
    provider?: string | ProviderRecord;
    token: T;
  }): Promise<T> {
    const refreshToken = req.token?.refresh_token;
    if (typeof refreshToken !== 'string' || !refreshToken) {
      throw new KernelError(
        'E_OAUTH_NO_REFRESH_TOKEN',
        'OAuth: this token has no refresh_token, so it cannot be refreshed; connect the account again',
      );
    }
    const handler = this.grant('refresh_token');
    const input = await this.prepare({ client: req.client, provider: req.provider, params: { refreshToken } });
    const response = await handler.request(input, this);
    return mergeRefreshed(req.token, response, this.now());
  }

  /** Pure refresh decision (60-second default window; negative threshold forces; no expiry refreshes). */
  needsRefresh(token: { expires?: number | null }, threshold?: number): boolean {
    return needsRefresh(token, { now: this.now(), threshold });
  }

  // ---- GrantTools ----

  endpoint(input: GrantInput): Endpoint {
    const tokenUrl = input.driver.tokenUrl(input.client);
    const url = this.checkedUrl(tokenUrl, input.provider.name, 'token');
    const options = input.driver.options(input.client);
    const secret = input.client.secret ?? '';
    const method = options.clientAuth ?? 'client_secret_post';
    const auth =
      method === 'none' || !secret
        ? oauth.None()
        : method === 'client_secret_basic'
          ? oauth.ClientSecretBasic(secret)
          : oauth.ClientSecretPost(secret);
    return {
      as: { issuer: options.issuer ?? url.origin, token_endpoint: url.href },
      client: { client_id: input.client.guid },
      auth,
      options: {
        [oauth.allowInsecureRequests]: url.protocol === 'http:',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      },
    };
  }

  send(input: GrantInput, perform: (e: Endpoint) => Promise<Response>): Promise<TokenResponse> {
    return tokenEndpointAnswer(input.provider.name, this.endpoint(input), perform, this.opts.timeoutMs);
  }

  redirectUri(input: GrantInput): string {
    const fromInput = input.params.redirectUri;
    if (typeof fromInput === 'string' && fromInput) return fromInput;
    const fromOptions = input.driver.options(input.client).redirectUri;
    if (typeof fromOptions === 'string' && fromOptions) return fromOptions;
    if (this.opts.redirectUri) return this.opts.redirectUri;
    if (this.opts.publicUrl) return new URL(RETURN_PATH, this.opts.publicUrl).href;
    throw new KernelError(
      'E_OAUTH_CLIENT_INVALID',
      'OAuth: no redirect URI; set server.publicUrl or pluginConfig.oauth-client.redirectUri',
    );
  }

  // ---- helpers ----

  /** A provider URL we may send credentials to: https, or http on loopback (or when allowed by config). */
  private checkedUrl(raw: string, provider: string, what: string): URL {
    return checkedProviderUrl(raw, provider, what, !!this.opts.allowInsecureHttp);
  }

  private driverIo(provider: string): DriverIo {
    return {
      fetchJson: async (raw, accessToken) => {
        const url = this.checkedUrl(raw, provider, 'resource owner');
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        if (!res.ok) {
          await res.arrayBuffer();
          throw new Error(`the owner URL answered HTTP ${res.status}`);
        }
        const json = (await res.json()) as unknown;
        if (!isObject(json)) throw new Error('the owner URL did not answer a JSON object');
        return json;
      },
      verifyIdToken: (idToken, { client, options, tokenUrl }) => {
        const jwksUrl = options.urlJwks ? replaceTenant(options.urlJwks, client.tenant) : undefined;
        if (jwksUrl) this.checkedUrl(jwksUrl, provider, 'JWKS');
        return verifyIdToken(idToken, {
          jwksUrl,
          tokenUrl,
          audience: client.guid,
          issuer: options.issuer,
          timeoutMs: this.opts.timeoutMs,
        });
      },
      warn: (msg, details) => this.opts.log.warn(details ?? {}, msg),
    };
  }
}

/** The built-in `refresh_token` grant (every storage needs it, so oauth-client carries it). */
export const refreshTokenGrant: GrantHandler = {
  grantType: 'refresh_token',
  aliases: ['refresh'],
  description: 'Refresh an access token with a stored refresh_token (no scope is sent)',
  request: (input, tools) =>
    tools.send(input, (e) =>
      oauth.refreshTokenGrantRequest(e.as, e.client, e.auth, String(input.params.refreshToken), e.options),
    ),
};
