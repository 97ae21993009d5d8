/** The identity store's records and collaborators: user and API-key rows, what authenticating loads, the contact directory. */
import type { Knex } from 'knex';

export interface UserRecord {
  id: number;
  username: string;
  password_hash: string | null;
  contact_id: number;
  is_active: boolean;
}

export interface ApiKeyRecord {
  id: number;
  contact_id: number;
  prefix: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** Permission aliases (`compat-civicrm`: `administer CiviCRM` → `administer CRM`). */
export type Aliases = Readonly<Record<string, string>>;

/** What authenticating needs about a contact, loaded in one round trip. */
export interface Principalish {
  contactId: number;
  user: UserRecord | null;
  permissions: Set<string>;
  /** Seconds the throttle still blocks the caller (0: not blocked). */
  wait: number;
}

/** The contacts users are linked to, reached through the Contact API (never its tables). */
export interface ContactDirectory {
  count(db: Knex, filter: Record<string, unknown>): Promise<number>;
  create(db: Knex, params: Record<string, unknown>): Promise<number>;
}
