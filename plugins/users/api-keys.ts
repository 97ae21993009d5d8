/** API key rows: making a key (only its SHA-256 is stored), finding a key's contact, listing and revoking. */
import type { Knex } from 'knex';
import { randomToken, sha256hex } from './crypto';
import type { ApiKeyRecord } from './identity-records';

/** Makes a key for a contact. The key is returned once; only its SHA-256 is stored. */
export async function createApiKey(
  db: Knex,
  contactId: number,
  label?: string,
): Promise<{ id: number; key: string; prefix: string }> {
  const key = `crm_${randomToken(24)}`;
  const prefix = key.slice(0, 10);
  const [row] = await db('crm_api_key')
    .insert({ contact_id: contactId, key_hash: sha256hex(key), prefix, label: label ?? null })
    .returning('id');
  return { id: Number(row.id ?? row), key, prefix };
}

/** The contact owning an active key, found by the key's hash. */
export async function contactForApiKey(db: Knex, key: string): Promise<number | null> {
  if (!key || key.length > 512) return null;
  const row = await db('crm_api_key')
    .where({ key_hash: sha256hex(key) })
    .whereNull('revoked_at')
    .first('contact_id');
  return row ? row.contact_id : null;
}

export async function listApiKeys(db: Knex): Promise<ApiKeyRecord[]> {
  return db('crm_api_key').select('id', 'contact_id', 'prefix', 'label', 'created_at', 'revoked_at').orderBy('id');
}

/** Revokes by id or by prefix; returns how many keys were revoked. */
export async function revokeApiKeys(db: Knex, idOrPrefix: string): Promise<number> {
  const query = db('crm_api_key').whereNull('revoked_at');
  if (/^\d+$/.test(idOrPrefix)) query.where({ id: Number(idOrPrefix) });
  else query.where({ prefix: idOrPrefix });
  return query.update({ revoked_at: db.fn.now() });
}

/** The label of the key a contact's `api_key` field holds (the reference's Contact.api_key). */
export const CONTACT_KEY_LABEL = 'Contact.api_key';

/**
 * Makes a contact's `api_key` (set through Contact create/update, as the reference's clients do) a key that
 * authenticates: the previous one is revoked, and only the new one's hash is stored here (the contact row
 * keeps the value encrypted). An empty value just revokes.
 */
export async function setContactApiKey(db: Knex, contactId: number, key: string | null): Promise<void> {
  await db('crm_api_key')
    .where({ contact_id: contactId, label: CONTACT_KEY_LABEL })
    .whereNull('revoked_at')
    .update({ revoked_at: db.fn.now() });
  if (!key) return;
  // The prefix names the key in listings without revealing any of a key the caller chose.
  await db('crm_api_key').insert({
    contact_id: contactId,
    key_hash: sha256hex(key),
    prefix: `contact-${contactId}`.slice(0, 16),
    label: CONTACT_KEY_LABEL,
  });
}
