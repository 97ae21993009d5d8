import type { Context } from 'koa';
import { definePlugin, Stage, type Kernel } from '../../kernel';
import { authCredential, httpRoutes } from '../../host';
import type { SessionStore } from '../users';
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
      handler: (ctx) => {
        ctx.type = 'text/html';
        ctx.body = loginPage(safeDestination(ctx.query.destination, config.afterLogin));
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
        ctx.type = 'text/html';
        if (crossSite(ctx)) {
          ctx.status = 403;
          ctx.body = loginPage(destination, 'This form must be sent from this site.');
          return;
        }
        const db = scope.cradle.db;
        const outcome = await scope.cradle.authenticator.passwordLogin(db, username, password, ctx.ip);
        if ('reject' in outcome) {
          ctx.status = 401;
          if (outcome.retryAfter) ctx.set('Retry-After', String(outcome.retryAfter));
          ctx.body = loginPage(destination, outcome.reject);
          return;
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
      handler: (ctx) => {
        ctx.type = 'text/html';
        ctx.body = logoutPage();
      },
    },
    {
      name: 'logout',
      methods: ['POST'],
      path: '/crm/logout',
      handler: async (ctx, scope) => {
        const sessions = scope.cradle.sessions;
        await sessions.end(scope.cradle.db, ctx.cookies.get(sessions.options.cookieName));
        sessions.clearCookie(ctx);
        ctx.status = 303;
        ctx.redirect('/crm/login');
      },
    },
  ]);
});
