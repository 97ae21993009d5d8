/** What grant and provider plugins import from oauth-client: its hooks and the records they exchange. */
export * from './hooks';
export type * from './types';
export { GenericProvider } from './drivers';
export { ProviderRegistry } from './providers';
export type { KeepFreshResult, OAuthRefresher } from './keep-fresh';
export { PROVIDERS_FLAVOR } from './util';
