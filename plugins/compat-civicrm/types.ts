/** What auth plugins read from the `compatCivicrm` service when this plugin is enabled. */
export interface CompatCivicrm {
  /** Extra header names carrying an AuthX credential (`X-Civi-Auth`), lower-case. */
  authHeaders: readonly string[];
  /** Extra header names carrying the site key (`X-Civi-Key`), lower-case. */
  siteKeyHeaders: readonly string[];
  /** CiviCRM permission name → our permission name. */
  permissionAliases: Readonly<Record<string, string>>;
}

declare module '../../kernel/types' {
  interface Cradle {
    compatCivicrm?: CompatCivicrm;
  }
}
