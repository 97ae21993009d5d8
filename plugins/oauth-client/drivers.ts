/**
 * Provider implementations shipped with oauth-client, registered through `oauth.providerClasses`:
 * `generic` (the default, CiviCRM's CiviGenericProvider) and `google` (room for specialised ones).
 */
import { ownerName } from './token-record';
import type {
  ClientRecord,
  DriverIo,
  ProviderClass,
  ProviderDriver,
  ProviderOptions,
  ProviderRecord,
  ResolvedOwner,
  TokenResponse,
} from './types';
import { KernelError, replaceTenant } from './util';

export const USE_ID_TOKEN = '{{use_id_token}}';

export class GenericProvider implements ProviderDriver {
  constructor(readonly provider: ProviderRecord) {}

  options(client: ClientRecord): ProviderOptions {
    return { ...this.provider.options, ...(client.options ?? {}) };
  }

  protected requireUrl(client: ClientRecord, key: 'urlAuthorize' | 'urlAccessToken'): string {
    const url = this.options(client)[key];
    if (typeof url !== 'string' || !url) {
      throw new KernelError('E_OAUTH_PROVIDER_INVALID', `OAuth provider ${this.provider.name} has no options.${key}`, {
        details: { provider: this.provider.name, option: key },
      });
    }
    return url;
  }

  authorizeUrl(client: ClientRecord): string {
    return replaceTenant(this.requireUrl(client, 'urlAuthorize'), client.tenant);
  }

  tokenUrl(client: ClientRecord): string {
    return replaceTenant(this.requireUrl(client, 'urlAccessToken'), client.tenant);
  }

  authorizationParams(client: ClientRecord, requested: { prompt?: string | null }): Record<string, string> {
    const o = this.options(client);
    const out: Record<string, string> = { ...(o.authorizationParams ?? {}) };
    const prompt = requested.prompt ?? o.prompt;
    if (prompt) out.prompt = prompt;
    if (o.accessType) out.access_type = o.accessType;
    return out;
  }

  /** Owner from the id_token for `{{use_id_token}}`, else from urlResourceOwnerDetails; fetch failures only warn (reference §4). */
  async resourceOwner(client: ClientRecord, token: TokenResponse, io: DriverIo): Promise<ResolvedOwner | null> {
    const options = this.options(client);
    const url = options.urlResourceOwnerDetails;
    if (url === USE_ID_TOKEN) {
      if (typeof token.id_token !== 'string') {
        io.warn('Failed to resolve resource_owner: the provider sent no id_token', { provider: this.provider.name });
        return null;
      }
      // Verification failures are not swallowed: a forged identity must never be stored.
      const claims = await io.verifyIdToken(token.id_token, { client, options, tokenUrl: this.tokenUrl(client) });
      return { owner: claims, name: this.nameOf(claims, options.responseResourceOwnerId ?? 'sub') };
    }
    if (!url) return null;
    try {
      // {{tenant}} here too (an extension of the reference, for catalogue providers on a subdomain).
      const owner = await io.fetchJson(replaceTenant(url, client.tenant), token.access_token);
      return { owner, name: this.nameOf(owner, options.responseResourceOwnerId ?? 'id') };
    } catch (err) {
      io.warn('Failed to resolve resource_owner', { provider: this.provider.name, reason: (err as Error).message });
      return null;
    }
  }

  protected nameOf(owner: Record<string, unknown>, idKey: string): string | null {
    return ownerName(owner, idKey);
  }
}

/** Google: owner name is the display name when present (league/oauth2-google's getName()); offline access by default. */
export class GoogleProvider extends GenericProvider {
  override authorizationParams(client: ClientRecord, requested: { prompt?: string | null }): Record<string, string> {
    const out = super.authorizationParams(client, requested);
    out.access_type ??= 'offline';
    return out;
  }

  protected override nameOf(owner: Record<string, unknown>, idKey: string): string | null {
    return typeof owner.name === 'string' && owner.name ? owner.name : super.nameOf(owner, idKey);
  }
}

export const builtinProviderClasses: ProviderClass[] = [
  {
    name: 'generic',
    description: 'Any OAuth2 provider described by URLs; supports {{tenant}} and {{use_id_token}}',
    create: (p) => new GenericProvider(p),
  },
  {
    name: 'google',
    description: 'Google (offline access, display name as owner name)',
    create: (p) => new GoogleProvider(p),
  },
];
