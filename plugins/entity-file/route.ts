/**
 * `GET /crm/file?id=<file>&eid=<record>`: the file's content, streamed, once the internal
 * Attachment.download action found it among the files the caller may see (404 otherwise, whether it exists
 * or not). Sent as an attachment with `nosniff`, so a browser never renders it as a page of this site.
 */
import type { Principal } from '../../kernel';
import type { RouteDefinition } from '../../host';
import { DOWNLOAD_ACTION } from './actions';
import { DOWNLOAD_PATH } from './attachments';
import type { FileStorage } from './storage';

const one = (value: unknown) => (Array.isArray(value) ? value[0] : value);

export function downloadRoute(storage: () => FileStorage): RouteDefinition {
  return {
    name: 'download',
    methods: ['GET'],
    path: DOWNLOAD_PATH,
    auth: ['authx', 'legacy-keys', 'session'],
    handler: async (ctx, scope) => {
      const found = (await scope.cradle.api.call({
        ...DOWNLOAD_ACTION,
        params: { id: one(ctx.query.id), eid: one(ctx.query.eid) },
        principal: ctx.state.principal as Principal,
        scope,
        internal: true,
      })) as { key: string; mime_type: string | null; name: string } | null;
      if (!found) {
        ctx.status = 404;
        ctx.body = { error: { code: 'E_NOT_FOUND', message: 'No such file' } };
        return;
      }
      ctx.set('Cache-Control', 'private, no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
      ctx.set('Content-Disposition', `attachment; filename="${found.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
      ctx.type = found.mime_type || 'application/octet-stream';
      ctx.body = await storage().read(found.key);
    },
  };
}
