/**
 * Serves static files from a fixed folder: only names matching a strict pattern, only files that
 * exist in that folder at boot (no path traversal), with a content type and a short cache lifetime.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/** A handler serving the files of `dir` named by the route's `:file` parameter. */
export function staticFiles(dir: string, only?: (name: string) => boolean) {
  const names = new Set(
    readdirSync(dir).filter(
      (n) =>
        /^[A-Za-z0-9._-]+$/.test(n) &&
        TYPES[path.extname(n)] &&
        statSync(path.join(dir, n)).isFile() &&
        (!only || only(n)),
    ),
  );
  return (ctx: Context) => {
    const name = String(ctx.params?.file ?? '');
    if (!names.has(name)) return; // falls through to the JSON 404
    ctx.type = TYPES[path.extname(name)];
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(path.join(dir, name));
  };
}
