import type { Context } from 'koa';
import { definePlugin, Stage, type Kernel } from '../../kernel';
import { authCredential, httpRoutes } from '../../host';
import type { SessionStore } from '../users';
import { PRELOGIN_COOKIE, sendHtml } from '../web-pages';
import { loginPage, logoutPage } from './pages';

/** Only a local path may follow a login (no open redirect). */
const safeDestination = (v: unknown, fallback: string) =>
  typeof v === 'string' && /^\/(?![/\\])[^\s]*$/.test(v) ? v : fallback;

/** A cross-site form post (Origin naming another host) is refused: no login CSRF. */
const crossSite = (ctx: Context) => {
  const origin = ctx.get('Origin');
  if (!origin) return false;
  try {
    return new URL(origin).host !== ctx.host;
  } catch {
    return true;
  }
};

export default definePlugin<{ afterLogin: string }>(({ config, hooks, services }) => {
  // Cookies decide last: an explicit credential (AuthX, legacy keys) wins over them.
  hooks.tap(
    authCredential,
    async (req) => {
      if (!req.accepts.includes('session')) return undefined;
      const sessions = services.resolve<SessionStore>('sessions');
      const session = await sessions.read(
        services.resolve<Kernel['db']>('db'),
        req.cookie(sessions.options.cookieName),
      );
      if (!session) return undefined;
      return {
        accept: {
          contactId: session.contactId,
          userId: session.userId,
          via: 'session',
          flow: 'session',
          attributes: { session: session.data, sessionHash: session.idHash },
        },
      };
    },
    { stage: Stage.LATE },
  );

  hooks.tap(httpRoutes, () => [
    {
      name: 'login-form',
      methods: ['GET'],
      path: '/crm/login',
      handler: (ctx, scope) => {
        const destination = safeDestination(ctx.query.destination, config.afterLogin);
        sendHtml(ctx, loginPage(destination, scope.cradle.csrf.preLoginToken(ctx)));
      },
    },
    {
      name: 'login',
      methods: ['POST'],
      path: '/crm/login',
      handler: async (ctx, scope) => {
        const body = (ctx.request.body ?? {}) as Record<string, unknown>;
        const destination = safeDestination(body.destination, config.afterLogin);
        const username = typeof body.username === 'string' ? body.username : '';
        const password = typeof body.password === 'string' ? body.password : '';
        const csrf = scope.cradle.csrf;
        const hasCookie = !!ctx.cookies.get(PRELOGIN_COOKIE);
        // A refusal sets no cookie: the form shown again reuses the browser's double-submit cookie.
        const again = (status: number, error: string) =>
          sendHtml(ctx, loginPage(destination, hasCookie ? csrf.preLoginToken(ctx) : '', error), { status });
        // A browser that loaded the form holds the double-submit cookie, and its post must carry the
        // matching token; a cross-site post never carries that (SameSite=Strict) cookie, and its Origin
        // is refused. Scripts without the cookie are judged by the Origin check alone.
        if (crossSite(ctx)) return again(403, 'This form must be sent from this site.');
        if ((hasCookie || (typeof body.csrf === 'string' && body.csrf !== '')) && !csrf.verifyPreLogin(ctx, body.csrf))
          return again(403, 'The form expired; please log in again.');
        const db = scope.cradle.db;
        const outcome = await scope.cradle.authenticator.passwordLogin(db, username, password, ctx.ip);
        if ('reject' in outcome) {
          if (outcome.retryAfter) ctx.set('Retry-After', String(outcome.retryAfter));
          return again(401, outcome.reject);
        }
        const sessions = scope.cradle.sessions;
        // Always a new session id: whatever id the browser brought is dropped (no fixation).
        const cookie = await sessions.start(
          db,
          { ...outcome.ok, data: { flow: 'session', cred: 'pass' } },
          ctx.cookies.get(sessions.options.cookieName),
        );
        sessions.setCookie(ctx, cookie);
        ctx.status = 303;
        ctx.redirect(destination);
      },
    },
    {
      name: 'logout-form',
      methods: ['GET'],
      path: '/crm/logout',
      auth: ['session'],
      handler: (ctx, scope) => {
        sendHtml(ctx, logoutPage(scope.cradle.csrf.tokenFor(ctx.state.principal)));
      },
    },
    {
      name: 'logout',
      methods: ['POST'],
      path: '/crm/logout',
      auth: ['session'],
      handler: async (ctx, scope) => {
        const sessions = scope.cradle.sessions;
        const body = (ctx.request.body ?? {}) as Record<string, unknown>;
        // Our pages post the session's CSRF token; a cross-site post is refused (no forced logout).
        if (crossSite(ctx) || (body.csrf !== undefined && !scope.cradle.csrf.verify(ctx.state.principal, body.csrf))) {
          sendHtml(ctx, logoutPage(scope.cradle.csrf.tokenFor(ctx.state.principal)), { status: 403 });
          return;
        }
        await sessions.end(scope.cradle.db, ctx.cookies.get(sessions.options.cookieName));
        sessions.clearCookie(ctx);
        ctx.status = 303;
        ctx.redirect('/crm/login');
      },
    },
  ]);
});
