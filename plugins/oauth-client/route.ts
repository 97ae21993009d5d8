/**
 * Public routes of the authorization code flow:
 * - `GET /crm/oauth-client/start?state=…`: for states started without a session, the first browser
 *   opening it gets a random HttpOnly cookie the state is bound to, then goes to the provider.
 * - `GET /crm/oauth-client/return`: checks the state (database, TTL, single use, bound to the session
 *   cookie or the start cookie), exchanges the code, stores the token, redirects to the landing URL
 *   (own origin or allow-list only) or shows a page. Errors are plain escaped HTML; nothing is written.
 */
import type { Context } from 'koa';
import { holds, isKernelError, KernelError, type Kernel } from '../../kernel';
import { type RouteDefinition } from '../../host';
import type { SessionStore } from '../users';
import type { IdentityStore } from '../users';
import { P } from './permissions';
import { mailSetup } from './mail';
import type { OAuthStore, Row } from './store';
import { contactCreator } from './store';
import type { OAuthTokens } from './tokens';
import { RETURN_PATH } from './tokens';

export const START_PATH = '/crm/oauth-client/start';
/** One cookie per sessionless state (several flows may run in one browser). */
export const stateCookie = (state: string) => `crm_oauth_${state}`;

export const escapeHtml = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function show(ctx: Context, status: number, title: string, lines: Array<[string, unknown]>): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page(
    title,
    `<dl>${lines
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
      .join('')}</dl>`,
  );
}

const one = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

export function oauthRoutes(resolve: <T>(name: string) => T): RouteDefinition[] {
  const store = () => resolve<OAuthStore>('oauthStore');
  return [
    {
      name: 'start',
      methods: ['GET'],
      path: START_PATH,
      handler: async (ctx, scope) => {
        try {
          const id = one(ctx.query.state) ?? '';
          const { cookie, providerUrl } = await store().claimState(scope.cradle.db, id);
          ctx.cookies.set(stateCookie(id), cookie, {
            httpOnly: true,
            sameSite: 'lax',
            secure: ctx.secure,
            path: '/crm/oauth-client',
            maxAge: 86400 * 1000,
            overwrite: true,
            signed: false,
          });
          ctx.set('Cache-Control', 'no-store');
          ctx.redirect(providerUrl);
        } catch (err) {
          if (!isKernelError(err)) throw err;
          show(ctx, 400, 'OAuth Error', [['Message', err.message]]);
        }
      },
    },
    {
      name: 'return',
      methods: ['GET'],
      path: RETURN_PATH,
      handler: async (ctx, scope) => {
        const db = scope.cradle.db as Kernel['db'];
        const s = store();
        const sessions = resolve<SessionStore>('sessions');
        const identity = resolve<IdentityStore>('identity');
        const session = await sessions.read(db, ctx.cookies.get(sessions.options.cookieName));
        try {
          // Single use: the state is consumed before anything else, whatever happens next.
          const stateId = one(ctx.query.state);
          const cookie =
            stateId && /^CC_[A-Za-z0-9]{1,60}$/.test(stateId) ? (ctx.cookies.get(stateCookie(stateId)) ?? null) : null;
          const state = await s.consumeState(db, stateId, { sessionHash: session?.idHash ?? null, cookie });
          const providerError = one(ctx.query.error);
          if (providerError) {
            resolve<import('pino').Logger>('log').info(
              { plugin: 'oauth-client', error: providerError.slice(0, 100) },
              'OAuth returned error',
            );
            return show(ctx, 400, 'OAuth Error', [
              ['Error', providerError],
              ['Description', one(ctx.query.error_description)],
              ['More information', one(ctx.query.error_uri)],
            ]);
          }
          const code = one(ctx.query.code);
          if (!code) throw new KernelError('E_OAUTH_CLIENT_INVALID', 'OAuth: Unrecognized return request');
          // The browser finishing the flow needs a permission too (anonymous: the anonymous role's).
          const perms = await identity.permissionsFor(db, session?.userId ?? null);
          if (!holds({ anyOf: [P.AUTH_CODE, P.CLIENT] }, perms)) {
            throw new KernelError(
              'E_FORBIDDEN',
              'You are not allowed to create OAuth tokens (create OAuth tokens via auth code flow, or manage OAuth client)',
            );
          }
          const landing = state.landingUrl ? s.landingUrl(state.landingUrl) : null;
          const clientRow = await s.clientById(db, state.clientId);
          const tokens = resolve<OAuthTokens>('oauthTokens');
          const record = await tokens.fetchToken('authorization_code', {
            client: s.clientRecord(clientRow),
            scopes: state.scopes,
            tag: state.tag,
            params: { code, codeVerifier: state.codeVerifier, redirectUri: state.redirectUri },
          });
          const saved: Row = await db.transaction(async (trx) => {
            const row = await s.saveToken(trx, state.storage, record, {
              callerContactId: session ? session.contactId : state.contactId,
              sessionHash: session?.idHash ?? null,
              createContact: contactCreator(scope, trx),
            });
            const mailId = await mailSetup(trx, s, state.storage, row);
            if (cookie && stateId)
              ctx.cookies.set(stateCookie(stateId), '', {
                path: '/crm/oauth-client',
                maxAge: 0,
                httpOnly: true,
                overwrite: true,
              });
            return mailId ? { ...row, tag: `MailSettings:${mailId}`, mail_settings_id: mailId } : row;
          });
          if (landing) {
            ctx.set('Cache-Control', 'no-store');
            ctx.redirect(landing);
            return;
          }
          show(ctx, 200, 'OAuth Token Created', [
            ['Storage', state.storage],
            ['Token ID', saved.id],
            ['Tag', saved.tag],
            ['Resource owner', saved.resource_owner_name],
            [
              'Mail account',
              saved.mail_settings_id ? `Account created! (MailSettings ${String(saved.mail_settings_id)})` : undefined,
            ],
            ['Next step', 'No landing URL was given; start the flow with landingUrl to come back to your page.'],
          ]);
        } catch (err) {
          if (!isKernelError(err)) throw err;
          const d = (err.details ?? {}) as Row;
          show(ctx, err.code === 'E_FORBIDDEN' ? 403 : 400, 'OAuth Error', [
            ['Message', err.message],
            ['Error', d.error],
            ['Description', d.error_description],
          ]);
        }
      },
    },
  ];
}
