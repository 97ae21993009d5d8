/**
 * Mail setup (reference §7.1): a system token tagged `MailSettings:setup` becomes a mail account built
 * from the provider's `mailSettingsTemplate` (§7.2 evaluation), and the token is retagged
 * `MailSettings:<id>`.
 */
import type { Knex } from 'knex';
import type { Storage } from './permissions';
import type { OAuthStore, Row } from './store';
import { evaluateTemplate } from './templates';

export const MAIL_SETUP_TAG = 'MailSettings:setup';

/** Returns the new MailSettings id, or null when the token is not a mail-setup token (or the provider has no template). */
export async function mailSetup(db: Knex, store: OAuthStore, storage: Storage, token: Row): Promise<number | null> {
  if (storage !== 'OAuthSysToken' || token.tag !== MAIL_SETUP_TAG || !token.client_id) return null;
  const client = await store.clientById(db, Number(token.client_id));
  const provider = await store.opts.providers.get(String(client.provider));
  if (!provider.mailSettingsTemplate) return null;
  const { secret: _secret, ...publicClient } = client;
  const { access_token: _a, refresh_token: _r, ...publicToken } = token;
  const evaluated = evaluateTemplate(provider.mailSettingsTemplate, {
    token: publicToken,
    client: publicClient,
    provider,
  });
  const entity = store.entity('MailSettings');
  const values: Row = { auth: 'XOAuth2', is_active: true };
  for (const [k, value] of Object.entries(evaluated)) {
    const key = k.replace(/:name$/, '');
    const field = entity.byName.get(key);
    if (!field || field.readonly || key === 'id') continue;
    values[key] = value;
  }
  const id = await store.opts.store.insert(db, entity, values);
  await db(store.entity('OAuthSysToken').table)
    .where('id', Number(token.id))
    .update({ tag: `MailSettings:${id}`, modified_date: db.fn.now() });
  return id;
}
