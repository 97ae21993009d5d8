/**
 * Entity-specific APIv4 actions of the OAuth entities. Handlers return the list of result records
 * (the APIv4 binding wraps them in its envelope). Generic CRUD (get/create/update/delete…) comes from
 * the generic APIv4 actions over the metadata in entities.ts.
 */
import { defineProviderActions } from './provider-actions';
import { refreshOne } from './refresh';
import type { ActionContext, ActionRegistrar, Permission, Principal } from '../../kernel';
import { KernelError } from '../../kernel';
import { P, type Storage } from './permissions';
import type { ProviderRegistry } from './providers';
import { contactCreator } from './contact-link';
import { createState, landingUrl as checkLandingUrl, newStateId } from './states';
import { OAuthStore, SESSION_ATTR, type Row, type Selector } from './store';
import type { OAuthTokens } from './tokens';

/** The usual APIv4 selectors (spec: where, orderBy, limit, checkPermissions); the binding always sends checkPermissions. */
export const selectorProps = {
  checkPermissions: { type: 'boolean' },
  where: { type: 'array' },
  orderBy: { type: 'object' },
  limit: { type: 'integer', minimum: 0 },
  offset: { type: 'integer', minimum: 0 },
};
const grantProps = {
  ...selectorProps,
  scopes: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }, { type: 'null' }] },
  storage: { type: 'string' },
  tag: { type: ['string', 'null'], maxLength: 128 },
};

export const sessionHashOf = (p: Principal): string | null => {
  const h = p.attributes?.[SESSION_ATTR];
  return typeof h === 'string' && h ? h : null;
};

const selector = (params: Row): Selector => ({
  where: params.where as unknown[] | undefined,
  orderBy: params.orderBy as Record<string, string> | undefined,
  limit: params.limit as number | undefined,
  offset: params.offset as number | undefined,
});

const scopesOf = (v: unknown): string[] | null =>
  v === undefined || v === null ? null : Array.isArray(v) ? (v as string[]) : [String(v)];

interface Deps {
  store: () => OAuthStore;
  tokens: () => OAuthTokens;
  providers: () => ProviderRegistry;
  publicUrl: string;
}

export function defineOAuthActions(actions: ActionRegistrar, deps: Deps): void {
  const { store, tokens, providers } = deps;

  // ---- OAuthClient.authorizationCode ----
  actions.define({
    version: 4,
    entity: 'OAuthClient',
    action: 'authorizationCode',
    description:
      'Starts the authorization code flow (PKCE S256): returns the URL to send the user to; the state is kept in the database',
    params: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...grantProps,
        landingUrl: { type: ['string', 'null'] },
        prompt: { type: ['string', 'null'] },
        ttl: { type: 'integer', minimum: 1, maximum: 86400 },
        responseMode: { type: ['string', 'null'] },
      },
    },
    permission: P.CLIENT,
    writes: true,
    async handler(params, ctx) {
      const oauthStore = store();
      const storage = OAuthStore.checkStorage(params.storage ?? 'OAuthSysToken');
      const landingUrl = checkLandingUrl(params.landingUrl, oauthStore.opts);
      const client = await oauthStore.locateClient(ctx.db, selector(params));
      const sessionHash = sessionHashOf(ctx.principal);
      const id = newStateId();
      const start = await tokens().authorizationUrl({
        client: oauthStore.clientRecord(client),
        scopes: scopesOf(params.scopes),
        params: { state: id, prompt: params.prompt ?? null, responseMode: params.responseMode ?? null },
      });
      const responseMode =
        typeof params.responseMode === 'string' && params.responseMode ? params.responseMode : 'query';
      await createState(
        ctx.db,
        id,
        {
          clientId: Number(client.id),
          storage,
          tag: (params.tag as string | null) ?? null,
          scopes: start.scopes,
          landingUrl,
          codeVerifier: start.codeVerifier,
          redirectUri: start.redirectUri,
          providerUrl: start.url,
          contactId: ctx.principal.contactId,
        },
        { sessionHash },
        (params.ttl as number | undefined) ?? 3600,
      );
      // Without a session the state is bound to the first browser opening our start link (it sets a cookie).
      const url = sessionHash ? start.url : new URL(`/crm/oauth-client/start?state=${id}`, deps.publicUrl).href;
      const row: Row = { response_mode: responseMode, url };
      if (responseMode === 'web_message') {
        row.response_origin = new URL(start.url).origin;
        row.continue_url = start.redirectUri;
      }
      return [row];
    },
  });

  // ---- OAuthClient.userPassword / clientCredential / clientCredentials ----
  const direct = (action: string, grant: string, description: string, extra: Record<string, object>) =>
    actions.define({
      version: 4,
      entity: 'OAuthClient',
      action,
      description,
      params: { type: 'object', additionalProperties: false, properties: { ...grantProps, ...extra } },
      permission: P.CLIENT,
      writes: true,
      async handler(params, ctx) {
        const oauthStore = store();
        const storage = OAuthStore.checkStorage(params.storage ?? 'OAuthSysToken');
        const sessionHash = sessionHashOf(ctx.principal);
        if (storage === 'OAuthSessionToken' && !sessionHash)
          throw new KernelError(
            'E_OAUTH_NO_SESSION',
            'OAuthSessionToken storage needs a logged-in session (the caller has none)',
          );
        const client = await oauthStore.locateClient(ctx.db, selector(params));
        const record = await tokens().fetchToken(grant, {
          client: oauthStore.clientRecord(client),
          scopes: scopesOf(params.scopes),
          tag: (params.tag as string | null) ?? null,
          params: grant === 'password' ? { username: params.username, password: params.password } : {},
        });
        const row = await oauthStore.saveToken(ctx.db, storage, record, {
          callerContactId: ctx.principal.contactId,
          sessionHash,
          createContact: contactCreator(ctx.scope, ctx.db),
        });
        return [oauthStore.tokenResult(storage, row, ctx.principal)];
      },
    });
  direct('userPassword', 'password', 'Gets a token with the resource owner password grant and stores it', {
    username: { type: 'string', minLength: 1 },
    password: { type: 'string', minLength: 1 },
  });
  direct('clientCredential', 'client_credentials', 'Gets a token with the client credentials grant and stores it', {});
  direct('clientCredentials', 'client_credentials', 'Alias of clientCredential', {});

  // ---- <Storage>.refresh ----
  const refreshPerm: Record<Storage, Permission> = {
    OAuthSysToken: P.CLIENT,
    OAuthContactToken: { anyOf: [P.MY_CONTACT_TOKENS, P.ALL_CONTACT_TOKENS] },
    OAuthSessionToken: 'administer CRM',
  };
  for (const storage of Object.keys(refreshPerm) as Storage[]) {
    actions.define({
      version: 4,
      entity: storage,
      action: 'refresh',
      description:
        'Refreshes the selected tokens that expire within threshold seconds (default 60; negative forces; no expiry always); ' +
        'one provider call per token even when callers race',
      params: {
        type: 'object',
        additionalProperties: false,
        properties: { ...selectorProps, threshold: { type: 'integer' } },
      },
      permission: refreshPerm[storage],
      // Not one transaction: each token is refreshed (or its error recorded) under its own row lock and committed.
      writes: false,
      handler: (params, ctx) => refreshTokens(store(), storage, params, ctx),
    });
  }
  defineProviderActions(actions, providers, selectorProps);
}

export async function refreshTokens(
  oauthStore: OAuthStore,
  storage: Storage,
  params: Row,
  ctx: Pick<ActionContext, 'db' | 'principal' | 'trusted'>,
): Promise<Row[]> {
  const rows = await oauthStore.selectTokens(ctx.db, storage, selector(params), ctx.principal, ctx.trusted);
  const out: Row[] = [];
  let firstError: unknown;
  for (const row of rows) {
    try {
      const res = await refreshOne(oauthStore, ctx.db, storage, Number(row.id), params.threshold as number | undefined);
      if (res.error) firstError ??= res.error;
      else out.push(oauthStore.tokenResult(storage, res.row, ctx.principal));
    } catch (err) {
      firstError ??= err;
    }
  }
  // A batch goes on past a failing token; when nothing could be refreshed, the caller hears why.
  if (!out.length && firstError) throw firstError;
  return out;
}
