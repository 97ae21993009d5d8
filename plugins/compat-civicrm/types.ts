/** The reference's spellings this plugin contributes to the auth plugins' hooks. */
export interface CompatCivicrm {
  /** Extra header names carrying an AuthX credential (`X-Civi-Auth`), lower-case. */
  authHeaders: readonly string[];
  /** Extra header names carrying the site key (`X-Civi-Key`), lower-case. */
  siteKeyHeaders: readonly string[];
  /** CiviCRM permission name → our permission name. */
  permissionAliases: Readonly<Record<string, string>>;
}
