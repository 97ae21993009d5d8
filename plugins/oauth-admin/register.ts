import type { Context } from 'koa';
import { definePlugin, isKernelError, KernelError, type Principal } from '../../kernel';
import { httpRoutes } from '../../host';
import {
  admit,
  callAs,
  renderPage,
  rowsOf,
  sendHtml,
  visibleLinks,
  webLinks,
  type Scope,
  type WebLink,
} from '../web-pages';
import { oauthPageBody } from './view';

const PAGE = '/crm/admin/oauth';
const PERMISSION = 'manage OAuth client';
const RETURN_PATH = '/crm/oauth-client/return';

/** Fixed texts for the notice after a command (the query names one; no caller text is reflected). */
const NOTICES: Record<string, string> = {
  created: 'Client added.',
  updated: 'Client saved.',
  deleted: 'Client deleted.',
  enabled: 'Client enabled.',
  disabled: 'Client disabled.',
  connected: 'Connected: the token is stored.',
  refreshed: 'Token refreshed.',
  revoked: 'Token revoked (forgotten by this service).',
};

type Row = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const idOf = (v: unknown) => {
  const id = Number(v);
  if (!Number.isInteger(id) || id <= 0) throw new KernelError('E_INVALID_PARAMS', 'No valid id was posted');
  return id;
};

export default definePlugin(({ hooks, serviceConfig }) => {
  const ownLink: WebLink = {
    href: PAGE,
    label: 'OAuth administration',
    description: 'Providers, OAuth clients, the Connect button (authorization code) and the tokens it stores.',
    permission: PERMISSION,
  };
  hooks.tap(webLinks, () => ownLink);

  // The same rule oauth-client applies: its own option, else the public URL, else the listening address.
  const { host, port } = serviceConfig.server;
  const listenHost = ['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const baseUrl = serviceConfig.server.publicUrl ?? `http://${listenHost}:${port}`;
  const configured = serviceConfig.pluginConfig['oauth-client']?.redirectUri;
  const redirectUri = typeof configured === 'string' ? configured : new URL(RETURN_PATH, baseUrl).href;

  async function show(ctx: Context, scope: Scope, principal: Principal, extra: { error?: string; status?: number }) {
    const call = async (entity: string, action: string, params: Row) =>
      rowsOf(await callAs(scope, principal, 4, entity, action, params));
    const providers = await call('OAuthProvider', 'get', {
      select: ['name', 'title', 'source', 'options'],
      orderBy: { name: 'ASC' },
    });
    const clients = await call('OAuthClient', 'get', {
      select: ['id', 'provider', 'guid', 'is_active'],
      orderBy: { id: 'ASC' },
    });
    const tokens = await call('OAuthSysToken', 'get', {
      select: [
        'id',
        'tag',
        'client_id.provider',
        'client_id.guid',
        'grant_type',
        'scopes',
        'expires',
        'resource_owner_name',
        'error',
      ],
      orderBy: { id: 'ASC' },
    });
    const csrf = scope.cradle.csrf.tokenFor(principal) ?? '';
    const notice = NOTICES[String(ctx.query.done ?? '')];
    // Connect posts here and is redirected to the provider: the policy names those origins.
    const authorizeOrigins = new Set<string>();
    for (const provider of providers) {
      try {
        authorizeOrigins.add(new URL(String((provider.options as Row)?.urlAuthorize)).origin);
      } catch {
        // A provider without a usable authorization URL cannot start the flow; nothing to allow.
      }
    }
    sendHtml(
      ctx,
      renderPage({
        title: 'OAuth administration',
        body: oauthPageBody({
          providers,
          clients,
          tokens,
          redirectUri,
          csrf,
          notice: extra.error ? undefined : notice,
          error: extra.error,
          now: Math.floor(Date.now() / 1000),
        }),
        principal,
        links: visibleLinks(scope.cradle.webPages.links, principal),
        csrf,
        current: PAGE,
      }),
      { status: extra.status, formActions: [...authorizeOrigins] },
    );
  }

  /** Runs one posted command; returns the notice key, or a URL to send the browser to (Connect). */
  async function run(scope: Scope, principal: Principal, body: Row): Promise<{ done: string } | { go: string }> {
    const call = async (entity: string, action: string, params: Row) =>
      rowsOf(await callAs(scope, principal, 4, entity, action, params));
    const byId = (id: unknown) => ({ where: [['id', '=', idOf(id)]] });
    switch (body.op) {
      case 'create': {
        const secret = text(body.secret);
        await call('OAuthClient', 'create', {
          values: { provider: text(body.provider), guid: text(body.guid), ...(secret ? { secret } : {}) },
        });
        return { done: 'created' };
      }
      case 'update': {
        const secret = text(body.secret);
        // The secret is write-only: an empty box keeps the stored one.
        await call('OAuthClient', 'update', {
          ...byId(body.id),
          values: { guid: text(body.guid), ...(secret ? { secret } : {}) },
        });
        return { done: 'updated' };
      }
      case 'enable':
      case 'disable':
        await call('OAuthClient', 'update', { ...byId(body.id), values: { is_active: body.op === 'enable' } });
        return { done: `${body.op}d` };
      case 'delete':
        await call('OAuthClient', 'delete', byId(body.id));
        return { done: 'deleted' };
      case 'connect': {
        const [start] = await call('OAuthClient', 'authorizationCode', {
          ...byId(body.id),
          storage: 'OAuthSysToken',
          landingUrl: `${PAGE}?done=connected`,
        });
        return { go: String(start.url) };
      }
      case 'refresh': {
        const [token] = await call('OAuthSysToken', 'refresh', { ...byId(body.id), threshold: -1 });
        if (!token) throw new KernelError('E_NOT_FOUND', 'No such token');
        return { done: 'refreshed' };
      }
      case 'revoke':
        await call('OAuthSysToken', 'delete', byId(body.id));
        return { done: 'revoked' };
      default:
        throw new KernelError('E_INVALID_PARAMS', 'Unknown command');
    }
  }

  hooks.tap(httpRoutes, () => [
    {
      name: 'page',
      methods: ['GET'],
      path: PAGE,
      auth: ['session'],
      handler: async (ctx, scope) => {
        const principal = admit(ctx, PERMISSION, scope.cradle.webPages.links);
        if (principal) await show(ctx, scope, principal, {});
      },
    },
    {
      name: 'command',
      methods: ['POST'],
      path: PAGE,
      auth: ['session'],
      handler: async (ctx, scope) => {
        const principal = admit(ctx, PERMISSION, scope.cradle.webPages.links);
        if (!principal) return;
        const body = (ctx.request.body ?? {}) as Row;
        if (!scope.cradle.csrf.verify(principal, body.csrf))
          return show(ctx, scope, principal, { error: 'The form expired; please try again.', status: 403 });
        try {
          const outcome = await run(scope, principal, body);
          ctx.status = 303;
          ctx.set('Cache-Control', 'no-store');
          ctx.redirect('go' in outcome ? outcome.go : `${PAGE}?done=${outcome.done}`);
        } catch (err) {
          if (!isKernelError(err)) throw err;
          await show(ctx, scope, principal, {
            error: err.expose ? err.message : 'Internal error',
            status: err.status >= 400 && err.status < 500 ? err.status : 400,
          });
        }
      },
    },
  ]);
});
