/** Hooks owned by oauth-client. Plugins tap them; oauth-client runs them. */
import { defineHook, Stage } from '../../kernel';
import type { GrantHandler, ProviderClass, ProviderRecord } from './types';

/**
 * Collect: contribute OAuth providers (one record or an array). The spec names this hook, so its id
 * is exactly `oauthProviders`. Run when the provider list is (re)built: at ready and after a flush or
 * when the cache expires. Records are merged by name in tap order; a later record replaces an earlier
 * one as a whole. See {@link ProviderStage} for who wins.
 */
export const oauthProviders = defineHook.collect<ProviderRecord, []>(
  'oauthProviders',
  'When the provider list is built (ready, flush, cache expiry): contribute OAuth provider records; ' +
    'later stages replace earlier ones by name',
);

/** Collect, keyed by `name`: provider implementations a provider's `class` can name. Duplicate = boot error. */
export const oauthProviderClasses = defineHook.collect<ProviderClass, []>(
  'oauth.providerClasses',
  'Once at ready: contribute provider implementations, keyed by class name',
);

/** Collect, keyed by `grantType` and aliases: grant implementations. Duplicate = boot error. */
export const oauthGrants = defineHook.collect<GrantHandler, []>(
  'oauth.grants',
  'Once at ready: contribute OAuth grant implementations, keyed by grant type',
);

/**
 * Stages of the `oauthProviders` taps, lowest first; on a name clash the later one wins:
 * the grant catalogue, then core files (`providers/*.json`), then plugins (default stage), then the
 * private folder (`<dataDir>/oauth-providers/*.json`), which always has the last word.
 */
export const ProviderStage = {
  CATALOGUE: -1000,
  CORE_FILES: Stage.EARLY,
  PLUGINS: Stage.NORMAL,
  PRIVATE_FOLDER: 1000,
} as const;

/** What `oauth.refreshFailed` and `oauth.refreshRecovered` tell their tappers (never a token). */
export interface TokenRefreshEvent {
  storage: 'OAuthSysToken' | 'OAuthContactToken';
  id: number;
  clientId: number | null;
  tag: string | null;
  contactId: number | null;
  /** The provider's error code (`invalid_grant`, `unreachable`, …) when the refresh failed. */
  error?: string;
  errorDescription?: string;
}

/**
 * Series: a token the background refresh could not refresh (the provider refused or was unreachable);
 * fired when a healthy token starts failing, not again on each retry while it keeps failing.
 */
export const oauthRefreshFailed = defineHook.series<[event: TokenRefreshEvent]>(
  'oauth.refreshFailed',
  'A system or contact token that was healthy could not be refreshed ahead of its expiry',
);

/** Series: a token whose last refresh had failed was refreshed again. */
export const oauthRefreshRecovered = defineHook.series<[event: TokenRefreshEvent]>(
  'oauth.refreshRecovered',
  'A system or contact token whose refresh had failed was refreshed again',
);
