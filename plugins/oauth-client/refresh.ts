/** Token refresh under a row lock, shared by the refresh actions and the Bearer helper. */
import type { Knex } from 'knex';
import { isKernelError, KernelError } from '../../kernel';
import type { Storage } from './permissions';
import type { OAuthStore, Row } from './store';
import type { TokenRecord } from './types';

/**
 * Refreshes one token under a row lock: `SELECT … FOR UPDATE`, then the freshness check again
 * (another caller or instance may have refreshed it while we waited), then at most one provider
 * call; the result (or the provider's error) is written before the lock is released.
 */
export async function refreshOne(
  store: OAuthStore,
  db: Knex,
  storage: Storage,
  id: number,
  threshold?: number,
): Promise<{ row: Row; refreshed: boolean; error?: KernelError }> {
  const entity = store.entity(storage);
  return db.transaction(async (trx) => {
    const locked = await trx(entity.table).where('id', id).forUpdate().first('id');
    if (!locked) throw new KernelError('E_NOT_FOUND', `${storage} ${id} does not exist`);
    const row = await store.readToken(trx, storage, id);
    if (!store.opts.tokens.needsRefresh({ expires: row.expires as number | null }, threshold))
      return { row, refreshed: false };
    if (!row.client_id) throw new KernelError('E_OAUTH_CLIENT_NOT_FOUND', `${storage} ${id} has no client`);
    const client = store.clientRecord(await store.clientById(trx, Number(row.client_id)));
    try {
      const next = await store.opts.tokens.refresh({ client, token: row as Partial<TokenRecord> });
      const values = {
        access_token: next.access_token,
        refresh_token: next.refresh_token,
        token_type: next.token_type,
        expires: next.expires,
        raw: next.raw,
        error: null,
        modified_date: trx.fn.now(),
      };
      // Through the entity store, which encrypts the tokens (`encrypted` fields).
      await store.opts.store.update(trx, entity, id, store.encode(values));
      return { row: await store.readToken(trx, storage, id), refreshed: true };
    } catch (err) {
      if (!isKernelError(err) || err.code === 'E_OAUTH_NO_REFRESH_TOKEN' || err.code === 'E_OAUTH_CLIENT_NOT_FOUND')
        throw err;
      const details = (err.details ?? {}) as Row;
      const error = {
        error: String(details.error ?? (err.code === 'E_OAUTH_UNREACHABLE' ? 'unreachable' : err.code)),
        error_description: String(details.error_description ?? err.message),
        time: store.now(),
      };
      await trx(entity.table)
        .where('id', id)
        .update(store.encode({ error, modified_date: trx.fn.now() }));
      store.opts.log.warn({ storage, id, error: error.error }, 'OAuth token refresh failed; recorded on the token');
      return { row: await store.readToken(trx, storage, id), refreshed: false, error: err };
    }
  });
}
