/**
 * `OAuthClient.authorizationCodeReturn` (internal): the work of the return route, run through the
 * pipeline so that authorization happens there like for every other call. The route only turns the
 * browser's request into params and the result (or error) into a redirect or a page.
 *
 * Not in a wrapping transaction (`writes` is false): the state is consumed and committed first, single
 * use whatever happens next; the provider is asked outside any transaction; the token (and its mail
 * account) are then saved in one transaction.
 */
import type { ActionRegistrar } from '../../kernel';
import { KernelError } from '../../kernel';
import { sessionHashOf } from './actions';
import { mailSetup } from './mail';
import { P } from './permissions';
import { contactCreator } from './contact-link';
import { consumeState, landingUrl } from './states';
import type { OAuthStore, Row } from './store';
import type { OAuthTokens } from './tokens';

export const RETURN_ACTION = { version: 4, entity: 'OAuthClient', action: 'authorizationCodeReturn' } as const;

export interface ReturnResult extends Row {
  storage: string;
  id: number;
  tag: string | null;
  resource_owner_name: string | null;
  mail_settings_id: number | null;
  /** Absolute landing URL (own origin or allow-listed), or null: show a page. */
  landing_url: string | null;
}

const optionalString = { type: 'string', maxLength: 2000 };

export function defineReturnAction(
  actions: ActionRegistrar,
  deps: { store: () => OAuthStore; tokens: () => OAuthTokens },
): void {
  actions.define<Record<string, string | undefined>, ReturnResult>({
    ...RETURN_ACTION,
    internal: true,
    description:
      'Finishes an authorization code flow from the provider redirect: consumes the state, exchanges the code, stores the token',
    // The browser finishing the flow needs a permission too (anonymous: the anonymous role's).
    permission: { anyOf: [P.AUTH_CODE, P.CLIENT] },
    params: {
      type: 'object',
      additionalProperties: false,
      properties: {
        state: optionalString,
        code: optionalString,
        error: optionalString,
        error_description: optionalString,
        error_uri: optionalString,
        /** The start cookie of a sessionless flow. */
        startCookie: optionalString,
      },
    },
    handler: async (params, ctx) => {
      const store = deps.store();
      const sessionHash = sessionHashOf(ctx.principal);
      const state = await consumeState(ctx.db, params.state, {
        sessionHash,
        cookie: params.startCookie ?? null,
      });
      if (params.error) {
        throw new KernelError('E_OAUTH_PROVIDER_ERROR', 'OAuth returned error', {
          details: {
            error: params.error.slice(0, 100),
            error_description: params.error_description,
            error_uri: params.error_uri,
          },
        });
      }
      if (!params.code) throw new KernelError('E_OAUTH_CLIENT_INVALID', 'OAuth: Unrecognized return request');
      const landing = state.landingUrl ? landingUrl(state.landingUrl, store.opts) : null;
      const client = store.clientRecord(await store.clientById(ctx.db, state.clientId));
      const record = await deps.tokens().fetchToken('authorization_code', {
        client,
        scopes: state.scopes,
        tag: state.tag,
        params: { code: params.code, codeVerifier: state.codeVerifier, redirectUri: state.redirectUri },
      });
      return ctx.db.transaction(async (trx) => {
        const row = await store.saveToken(trx, state.storage, record, {
          callerContactId: sessionHash ? ctx.principal.contactId : state.contactId,
          sessionHash,
          createContact: contactCreator(ctx.scope, trx),
        });
        const mailId = await mailSetup(trx, store, state.storage, row);
        return {
          storage: state.storage,
          id: Number(row.id),
          tag: mailId ? `MailSettings:${mailId}` : ((row.tag as string | null) ?? null),
          resource_owner_name: (row.resource_owner_name as string | null) ?? null,
          mail_settings_id: mailId,
          landing_url: landing,
        };
      });
    },
  });
}
