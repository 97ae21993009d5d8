import { createRequire } from 'node:module';
import path from 'node:path';
import { definePlugin, KernelError, type Kernel, type Principal } from '../../kernel';
import { httpRoutes } from '../../host';
import pkg from '../../package.json';
import type { EntityRegistry } from '../entity-core';
import { admit, holdsPermission, renderPage, sendHtml, staticFiles, visibleLinks, webLinks } from '../web-pages';
import { buildOpenApi } from './generate';
import './types';

/** The document, built once from the sealed registries. */
export interface OpenApiService {
  document(): Record<string, unknown>;
}

const DOCUMENT = '/crm/openapi.json';
const REFERENCE = '/crm/docs/api';
const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export default definePlugin(({ hooks, services, dir }) => {
  let built: Record<string, unknown> | undefined;
  const service: OpenApiService = {
    document: () =>
      (built ??= buildOpenApi({
        title: 'CRM service API',
        version: pkg.version,
        actions: services.resolve<Kernel['actions']>('actions').list(),
        paramsOf: (version, entity, action) =>
          services.resolve<Kernel['actions']>('actions').get(version, entity, action)?.params,
        entities: services.resolve<EntityRegistry>('entities'),
      })),
  };
  services.value('openApi', service);

  hooks.tap(webLinks, () => [
    {
      href: REFERENCE,
      label: 'API reference',
      description: 'Every APIv4 entity and action and the APIv3 end-point, rendered from the OpenAPI document.',
      permission: 'access CRM',
    },
    {
      href: DOCUMENT,
      label: 'OpenAPI document',
      description: 'OpenAPI 3.1 (JSON), generated from the action registry and entity metadata.',
      permission: 'access CRM',
    },
  ]);

  hooks.tap(httpRoutes, () => [
    {
      name: 'document',
      methods: ['GET'],
      path: DOCUMENT,
      auth: ['authx', 'session'],
      handler: (ctx) => {
        const principal = ctx.state.principal as Principal;
        if (!holdsPermission(principal, 'access CRM'))
          throw new KernelError(
            principal.contactId === null ? 'E_UNAUTHENTICATED' : 'E_FORBIDDEN',
            'The API description needs the permission access CRM',
          );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = service.document();
      },
    },
    {
      name: 'reference',
      methods: ['GET'],
      path: REFERENCE,
      auth: ['session'],
      handler: (ctx, scope) => {
        const links = scope.cradle.webPages.links;
        const principal = admit(ctx, 'access CRM', links);
        if (!principal) return;
        sendHtml(
          ctx,
          renderPage({
            title: 'API reference',
            body:
              `<p>Generated from the running service: <a href="${DOCUMENT}">the OpenAPI 3.1 document</a>. ` +
              '"Try it out" runs calls with your session.</p>\n' +
              `<div id="reference" data-url="${DOCUMENT}"></div>`,
            principal,
            links: visibleLinks(links, principal),
            csrf: scope.cradle.csrf.tokenFor(principal),
            current: REFERENCE,
            styles: ['/crm/assets/swagger-ui/swagger-ui.css'],
            scripts: ['/crm/assets/swagger-ui/swagger-ui-bundle.js', '/crm/assets/openapi/reference.js'],
          }),
          // Swagger UI sets style attributes as it renders.
          { inlineStyles: true },
        );
      },
    },
    {
      name: 'assets',
      methods: ['GET', 'HEAD'],
      path: '/crm/assets/openapi/:file',
      handler: staticFiles(path.join(dir, 'assets')),
    },
    {
      name: 'swagger-ui',
      methods: ['GET', 'HEAD'],
      path: '/crm/assets/swagger-ui/:file',
      handler: staticFiles(swaggerDir, (name) => ['swagger-ui.css', 'swagger-ui-bundle.js'].includes(name)),
    },
  ]);
});
