/**
 * The shared look of every page: one layout, one stylesheet, escaped output, and the security headers
 * (Content-Security-Policy without inline script or style, no framing, no caching of pages that show
 * a caller's data).
 */
import type { Context } from 'koa';
import type { Principal } from '../../kernel';
import type { WebLink } from './hooks';

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Serialises data for a `<script type="application/json">` block (never executed; `<` cannot close it). */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export const ASSET_PREFIX = '/crm/assets/web';

export interface PageOptions {
  title: string;
  /** Already-escaped HTML of the main element. */
  body: string;
  principal?: Principal;
  /** Header links (already filtered for the caller). */
  links?: WebLink[];
  /** CSRF token for the header's logout button (logged-in callers). */
  csrf?: string;
  /** Extra scripts (same-origin URLs). */
  scripts?: string[];
  /** Extra stylesheets (same-origin URLs). */
  styles?: string[];
  /** Marks a link in the header as the current page. */
  current?: string;
}

export function renderPage(opts: PageOptions): string {
  const loggedIn = opts.principal && opts.principal.contactId !== null && opts.principal.via !== 'anonymous';
  const nav = [{ href: '/', label: 'Home', description: '' }, ...(opts.links ?? [])]
    .map(
      (l) =>
        `<li><a href="${escapeHtml(l.href)}"${l.href === opts.current ? ' aria-current="page"' : ''}>${escapeHtml(l.label)}</a></li>`,
    )
    .join('');
  const destination = opts.current && opts.current !== '/crm/login' ? opts.current : '/';
  const account = loggedIn
    ? '<form method="post" action="/crm/logout" class="logout">' +
      `<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf ?? '')}">` +
      `<span>Contact ${escapeHtml(opts.principal!.contactId)}</span> <button type="submit">Log out</button></form>`
    : `<a href="/crm/login?destination=${encodeURIComponent(destination)}">Log in</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} · CRM service</title>
<link rel="stylesheet" href="${ASSET_PREFIX}/style.css">
${(opts.styles ?? []).map((s) => `<link rel="stylesheet" href="${escapeHtml(s)}">`).join('\n')}
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><nav aria-label="Main"><ul>${nav}</ul></nav><div class="account">${account}</div></header>
<main id="main">
<h1>${escapeHtml(opts.title)}</h1>
${opts.body}
</main>
${(opts.scripts ?? []).map((s) => `<script src="${escapeHtml(s)}" defer></script>`).join('\n')}
</body></html>
`;
}

export interface SendOptions {
  status?: number;
  /** Origins forms on this page may post to (and be redirected to), besides 'self'. */
  formActions?: string[];
  /** Allows inline style attributes (the API reference renderer sets them). */
  inlineStyles?: boolean;
}

/** The policy every page is served with: scripts and styles from this origin only, no framing. */
export function contentSecurityPolicy(opts: SendOptions = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self'${opts.inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self'${(opts.formActions ?? []).map((o) => ` ${o}`).join('')}`,
  ].join('; ');
}

export function sendHtml(ctx: Context, html: string, opts: SendOptions = {}): void {
  ctx.status = opts.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', contentSecurityPolicy(opts));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = html;
}

/** Whether the caller is a logged-in user (not the anonymous principal). */
export const isLoggedIn = (principal: Principal | undefined): boolean =>
  !!principal && principal.contactId !== null && principal.via !== 'anonymous';
