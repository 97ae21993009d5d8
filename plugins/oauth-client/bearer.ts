/**
 * The `oauthAccess` service: a fresh access token (and its `Authorization` header) for a stored
 * token, refreshing it first when it is due (under the same row lock as the refresh actions).
 * Inside an action handler pass `{ db: ctx.db }`.
 * @example const { headers } = await scope.cradle.oauthAccess.bearer({ storage: 'OAuthSysToken', tag: 'MailSettings:3' });
 */
import { refreshOne } from './refresh';
import type { Knex } from 'knex';
import { KernelError } from '../../kernel';
import type { Storage } from './permissions';
import { OAuthStore } from './store';

export interface TokenRef {
  storage?: Storage;
  id?: number;
  /** The most recent token with this tag. */
  tag?: string;
}

export interface Bearer {
  tokenId: number;
  accessToken: string;
  tokenType: string;
  expires: number | null;
  headers: { Authorization: string };
}

export class OAuthAccess {
  constructor(
    private readonly store: () => OAuthStore,
    private readonly rootDb: () => Knex,
  ) {}

  async bearer(ref: TokenRef, opts: { threshold?: number; db?: Knex } = {}): Promise<Bearer> {
    const storage = OAuthStore.checkStorage(ref.storage ?? 'OAuthSysToken');
    const db = opts.db ?? this.rootDb();
    const oauthStore = this.store();
    let id = ref.id;
    if (id === undefined) {
      if (!ref.tag) throw new KernelError('E_INVALID_PARAMS', 'oauthAccess.bearer needs a token id or tag');
      const rows = await oauthStore.select(
        db,
        storage,
        { where: [['tag', '=', ref.tag]], orderBy: { id: 'DESC' }, limit: 1 },
        null,
      );
      if (!rows.length) throw new KernelError('E_NOT_FOUND', `No ${storage} is tagged ${ref.tag}`);
      id = Number(rows[0].id);
    }
    const stored = await oauthStore.readToken(db, storage, id);
    if (!stored.refresh_token) {
      // Nothing to refresh with (client credentials): usable until it expires.
      const exp = stored.expires as number | null;
      if (exp && exp <= oauthStore.now())
        throw new KernelError(
          'E_OAUTH_NO_REFRESH_TOKEN',
          `OAuth: ${storage} ${id} has expired and has no refresh_token; get a new token`,
        );
      return this.shape(id, stored);
    }
    const { row, error } = await refreshOne(oauthStore, db, storage, id, opts.threshold);
    if (error) throw error;
    return this.shape(id, row);
  }

  private shape(id: number, row: Record<string, unknown>): Bearer {
    if (typeof row.access_token !== 'string' || !row.access_token)
      throw new KernelError('E_OAUTH_NO_REFRESH_TOKEN', `OAuth token ${id} has no access token`);
    return {
      tokenId: id,
      accessToken: row.access_token,
      tokenType: (row.token_type as string) || 'Bearer',
      expires: (row.expires as number | null) ?? null,
      headers: { Authorization: `Bearer ${row.access_token}` },
    };
  }
}
