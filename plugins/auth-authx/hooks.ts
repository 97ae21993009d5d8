/** Hooks the auth-authx plugin owns. */
import { defineHook } from '../../kernel';

/** Extra header names carrying an AuthX credential or the site key (lower-case). */
export interface AuthxHeaderAliases {
  auth?: readonly string[];
  siteKey?: readonly string[];
}

/**
 * Once at ready: contribute extra header names AuthX reads (e.g. the reference's `X-Civi-Auth`).
 * compat-civicrm taps it when enabled.
 */
export const authxHeaders = defineHook.collect<AuthxHeaderAliases, []>(
  'authx.headers',
  'Once at ready: contribute extra header names carrying an AuthX credential or site key',
);
