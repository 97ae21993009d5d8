import path from 'node:path';
import { definePlugin, type Principal } from '../../kernel';
import { httpRoutes } from '../../host';
import pkg from '../../package.json';
import { staticFiles } from './assets';
import { Csrf, type SecretSource } from './csrf';
import { entitiesFor, explorerBody, explorerScripts } from './explorer';
import { admit, visibleLinks } from './gate';
import { homeBody } from './home';
import { explorerExamples, webLinks, type ExplorerExample, type WebLink } from './hooks';
import { isLoggedIn, renderPage, sendHtml } from './layout';
import type { Scope } from './platform';
import './types';

/** What the pages collected once at ready. */
export interface WebPages {
  links: WebLink[];
  examples: ExplorerExample[];
}

const OWN_LINKS: WebLink[] = [
  {
    href: '/crm/api4',
    label: 'API Explorer (APIv4)',
    description: 'Pick an entity and action, build the params with field pickers, run it, copy it as code.',
    permission: 'access CRM',
  },
  {
    href: '/crm/api3',
    label: 'API Explorer (APIv3)',
    description: 'The same explorer for the APIv3 protocol (the REST end-point /crm/ajax/rest).',
    permission: 'access CRM',
  },
];

export default definePlugin(({ hooks, services, runHook, onReady, dir }) => {
  const collected: WebPages = { links: [...OWN_LINKS], examples: [] };
  services.value('webPages', collected);
  services.singleton('csrf', ({ keyring }: { keyring: SecretSource }) => new Csrf(() => keyring));
  onReady(async () => {
    collected.links.push(...(await runHook(webLinks)));
    collected.examples = (await runHook(explorerExamples)).map((e) => ({ ...e, params: structuredClone(e.params) }));
  });

  const chrome = (scope: Scope, principal: Principal, current?: string) => ({
    principal,
    links: visibleLinks(collected.links, principal),
    csrf: scope.cradle.csrf.tokenFor(principal),
    current,
  });

  const explorer = (version: 3 | 4) => ({
    name: `explorer-api${version}`,
    methods: ['GET' as const],
    path: `/crm/api${version}`,
    auth: ['session'],
    handler: async (ctx: import('koa').Context, scope: Scope) => {
      const principal = admit(ctx, 'access CRM', collected.links);
      if (!principal) return;
      const entities = await entitiesFor(scope, principal, version);
      const examples = collected.examples.filter((e) => e.version === version && entities.includes(e.entity));
      sendHtml(
        ctx,
        renderPage({
          title: `API Explorer: APIv${version}`,
          body: explorerBody(version, entities, examples),
          scripts: explorerScripts,
          ...chrome(scope, principal, `/crm/api${version}`),
        }),
      );
    },
  });

  hooks.tap(httpRoutes, () => [
    {
      name: 'home',
      methods: ['GET'],
      path: '/',
      auth: ['session'],
      handler: (ctx, scope) => {
        const principal = ctx.state.principal as Principal;
        const links = visibleLinks(collected.links, principal);
        sendHtml(
          ctx,
          renderPage({
            title: 'CRM service',
            body: homeBody({
              principal,
              links,
              version: pkg.version,
              loginCsrf: isLoggedIn(principal) ? undefined : scope.cradle.csrf.preLoginToken(ctx),
            }),
            ...chrome(scope, principal, '/'),
          }),
        );
      },
    },
    {
      name: 'assets',
      methods: ['GET', 'HEAD'],
      path: '/crm/assets/web/:file',
      handler: staticFiles(path.join(dir, 'assets')),
    },
    explorer(3),
    explorer(4),
  ]);
});
