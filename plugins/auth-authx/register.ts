import type { Knex } from 'knex';
import { definePlugin, KernelError, Stage } from '../../kernel';
import { authCredential, httpRoutes, type RawResponse } from '../../host';
import type { Authenticator, Guard } from '../users';
import type { SessionStore } from '../users';
import { ROLE_PERMISSIONS } from '../users';
import { detectFlow, LOGIN_PATH, type FlowSettings, type HeaderNames } from './flows';
import { authxHeaders } from './hooks';

interface AuthxOptions {
  flows: FlowSettings;
  guards: Guard[];
}

/** AuthX's refusal: HTTP 401, text/plain, `HTTP 401 <message>`, no cookie. */
export function authxRefusal(message: string, retryAfter?: number): RawResponse {
  return {
    status: 401,
    type: 'text/plain',
    body: `HTTP 401 ${message}`,
    ...(retryAfter ? { headers: { 'Retry-After': String(retryAfter) } } : {}),
  };
}

export default definePlugin<AuthxOptions>(({ config, hooks, services, onReady, runHook }) => {
  let names: HeaderNames = { auth: ['x-crm-auth'], siteKey: ['x-crm-key'] };
  onReady(async () => {
    for (const extra of await runHook(authxHeaders)) {
      names = {
        auth: [...names.auth, ...(extra.auth ?? []).map((h) => h.toLowerCase())],
        siteKey: [...names.siteKey, ...(extra.siteKey ?? []).map((h) => h.toLowerCase())],
      };
    }
  });

  // An explicit credential decides before legacy keys and cookies.
  hooks.tap(
    authCredential,
    async (req) => {
      if (!req.accepts.includes('authx')) return undefined;
      const found = detectFlow(req, config.flows, names);
      if (!found) return undefined;
      const db = services.resolve<Knex>('db');
      const authenticator = services.resolve<Authenticator>('authenticator');
      const outcome = await authenticator.authenticate(db, {
        flow: found.flow,
        credential: found.credential,
        siteKey: found.siteKey,
        ip: req.ip,
        policy: { ...config.flows[found.flow], guards: config.guards },
      });
      if ('reject' in outcome)
        return { reject: outcome.reject, response: authxRefusal(outcome.reject, outcome.retryAfter) };
      const { contactId, userId, cred, permissions } = outcome.ok;
      if (found.flow === 'login') {
        const sessions = services.resolve<SessionStore>('sessions');
        const active = await sessions.read(db, req.cookie(sessions.options.cookieName));
        if (active && active.contactId !== contactId) {
          const msg = 'Cannot login. A mismatched session is already active.';
          return { reject: msg, response: authxRefusal(msg) };
        }
      }
      return {
        accept: {
          contactId,
          userId,
          via: cred,
          flow: found.flow,
          attributes: { cred, ...(permissions ? { [ROLE_PERMISSIONS]: permissions } : {}) },
        },
      };
    },
    { stage: Stage.EARLY },
  );

  hooks.tap(httpRoutes, () => [
    {
      name: 'authx-id',
      methods: ['GET', 'POST'],
      path: '/crm/authx/id',
      auth: ['authx', 'session'],
      handler: (ctx, scope) => {
        ctx.body = whoAmI(scope.cradle.principal);
      },
    },
    {
      name: 'authx-login',
      methods: ['GET', 'POST'],
      path: LOGIN_PATH,
      auth: ['authx'],
      handler: async (ctx, scope) => {
        const principal = scope.cradle.principal;
        if (principal.flow !== 'login' || principal.contactId === null) {
          throw new KernelError('E_UNAUTHENTICATED', 'Invalid credential', {
            response: authxRefusal('Invalid credential'),
          });
        }
        const sessions = scope.cradle.sessions;
        const cookie = await sessions.start(
          scope.cradle.db,
          {
            contactId: principal.contactId,
            userId: principal.userId,
            data: { flow: 'login', cred: principal.via },
          },
          ctx.cookies.get(sessions.options.cookieName),
        );
        sessions.setCookie(ctx, cookie);
        ctx.body = whoAmI(principal);
      },
    },
    {
      name: 'authx-logout',
      methods: ['GET', 'POST'],
      path: '/crm/authx/logout',
      auth: ['session'],
      handler: async (ctx, scope) => {
        const sessions = scope.cradle.sessions;
        await sessions.end(scope.cradle.db, ctx.cookies.get(sessions.options.cookieName));
        sessions.clearCookie(ctx);
        ctx.body = [];
      },
    },
  ]);
});

/** `{contact_id, user_id, flow, cred}`, nulls when anonymous; a session started by login reports that login. */
function whoAmI(p: {
  contactId: number | null;
  userId: number | null;
  via: string;
  flow?: string;
  attributes?: Readonly<Record<string, unknown>>;
}) {
  if (p.contactId === null) return { contact_id: null, user_id: null, flow: null, cred: null };
  const started = (p.attributes?.session ?? {}) as { flow?: string; cred?: string };
  return {
    contact_id: p.contactId,
    user_id: p.userId,
    flow: started.flow ?? p.flow ?? null,
    cred: started.cred ?? p.via,
  };
}
