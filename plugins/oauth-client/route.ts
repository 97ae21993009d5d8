/**
 * Public routes of the authorization code flow:
 * - `GET /crm/oauth-client/start?state=…`: for states started without a session, the first browser
 *   opening it gets a random HttpOnly cookie the state is bound to, then goes to the provider.
 * - `GET /crm/oauth-client/return`: runs the internal action `OAuthClient.authorizationCodeReturn`
 *   through the pipeline (authorization there; state checks, exchange and storage in return-action.ts)
 *   as the browser's session or the anonymous caller, then redirects to the landing URL (own origin or
 *   allow-list only) or shows a page. Errors are plain escaped HTML; nothing is written.
 */
import type { Context } from 'koa';
import { isKernelError, type Principal } from '../../kernel';
import { type RouteDefinition } from '../../host';
import { RETURN_ACTION, type ReturnResult } from './return-action';
import { claimState } from './states';
import type { Row } from './store';
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
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
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

export function oauthRoutes(): RouteDefinition[] {
  return [
    {
      name: 'start',
      methods: ['GET'],
      path: START_PATH,
      handler: async (ctx, scope) => {
        try {
          const id = one(ctx.query.state) ?? '';
          const { cookie, providerUrl } = await claimState(scope.cradle.db, id);
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
      // The browser's session (if any) is the caller; without one, the anonymous role decides.
      auth: ['session'],
      handler: async (ctx, scope) => {
        const stateId = one(ctx.query.state);
        const startCookie =
          stateId && /^CC_[A-Za-z0-9]{1,60}$/.test(stateId) ? ctx.cookies.get(stateCookie(stateId)) : undefined;
        try {
          const params: Record<string, string> = {};
          for (const key of ['state', 'code', 'error', 'error_description', 'error_uri'] as const) {
            const value = one(ctx.query[key]);
            if (value !== undefined) params[key] = value;
          }
          if (startCookie) params.startCookie = startCookie;
          const saved = (await scope.cradle.api.call({
            ...RETURN_ACTION,
            params,
            principal: ctx.state.principal as Principal,
            scope,
            internal: true,
          })) as ReturnResult;
          if (startCookie && stateId)
            ctx.cookies.set(stateCookie(stateId), '', {
              path: '/crm/oauth-client',
              maxAge: 0,
              httpOnly: true,
              overwrite: true,
            });
          if (saved.landing_url) {
            ctx.set('Cache-Control', 'no-store');
            ctx.redirect(saved.landing_url);
            return;
          }
          show(ctx, 200, 'OAuth Token Created', [
            ['Storage', saved.storage],
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
          if (!isKernelError(err) || err.code === 'E_INTERNAL') throw err;
          const details = (err.details ?? {}) as Row;
          const status = err.code === 'E_FORBIDDEN' ? 403 : err.code === 'E_UNAUTHENTICATED' ? 401 : 400;
          show(ctx, status, 'OAuth Error', [
            ['Message', err.message],
            ['Error', details.error],
            ['Description', details.error_description],
            ['More information', details.error_uri],
          ]);
        }
      },
    },
  ];
}
