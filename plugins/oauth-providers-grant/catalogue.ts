/**
 * Maps grant's bundled provider catalogue (`grant/config/oauth.json`, with profile URLs from
 * `grant/config/profile.json`) to our provider records. Only OAuth 2 entries are kept: our client
 * speaks OAuth 2. grant's `[subdomain]` placeholder becomes `{{tenant}}` (the client's tenant fills
 * it) and such providers are flagged `tenancy: true`. grant's default scope delimiter is `,`.
 */
import { createRequire } from 'node:module';
import type { ProviderRecord } from '../oauth-client';

export interface GrantCatalogueEntry {
  authorize_url?: string;
  access_url?: string;
  request_url?: string;
  oauth?: number;
  scope_delimiter?: string;
}

const require = createRequire(import.meta.url);

export function loadGrantCatalogue(): {
  oauth: Record<string, GrantCatalogueEntry>;
  profile: Record<string, { profile_url?: string }>;
} {
  return { oauth: require('grant/config/oauth.json'), profile: require('grant/config/profile.json') };
}

const placeholder = (url: string) => url.replace(/\[subdomain\]/g, '{{tenant}}');

/** One catalogue entry as a provider record, or null when it is not a usable OAuth 2 provider. */
export function mapGrantEntry(name: string, entry: GrantCatalogueEntry, profileUrl?: string): ProviderRecord | null {
  if (entry.oauth !== 2 || !entry.authorize_url || !entry.access_url) return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(name)) return null;
  const urls = [entry.authorize_url, entry.access_url, profileUrl ?? ''];
  const tenancy = urls.some((u) => u.includes('[subdomain]'));
  return {
    name,
    title: `${name} (grant catalogue)`,
    tags: ['grant-catalogue'],
    options: {
      urlAuthorize: placeholder(entry.authorize_url),
      urlAccessToken: placeholder(entry.access_url),
      ...(profileUrl ? { urlResourceOwnerDetails: placeholder(profileUrl) } : {}),
      scopeSeparator: entry.scope_delimiter ?? ',',
      ...(tenancy ? { tenancy: true } : {}),
    },
  };
}

/** Every usable OAuth 2 provider of the catalogue, optionally restricted to `only`. */
export function grantProviders(only?: string[]): ProviderRecord[] {
  const { oauth, profile } = loadGrantCatalogue();
  const wanted = only ? new Set(only) : undefined;
  return Object.entries(oauth)
    .filter(([name]) => !wanted || wanted.has(name))
    .map(([name, entry]) => mapGrantEntry(name, entry, profile[name]?.profile_url))
    .filter((p): p is ProviderRecord => p !== null);
}
