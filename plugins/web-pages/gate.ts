/** Access to a page: visitors go to the login page and come back; a missing permission is a 403 page. */
import type { Context } from 'koa';
import type { Principal } from '../../kernel';
import type { WebLink } from './hooks';
import { escapeHtml, isLoggedIn, renderPage, sendHtml } from './layout';
import { holdsPermission } from './platform';

/** Header links the caller may follow. */
export const visibleLinks = (links: WebLink[], principal: Principal | undefined): WebLink[] =>
  links.filter((l) => !l.permission || (isLoggedIn(principal) && holdsPermission(principal, l.permission)));

/**
 * The caller when it may see the page; otherwise answers (303 to the login page, or 403) and returns
 * undefined.
 */
export function admit(ctx: Context, permission: string, links: WebLink[] = []): Principal | undefined {
  const principal = ctx.state.principal as Principal | undefined;
  if (!isLoggedIn(principal)) {
    ctx.status = 303;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`/crm/login?destination=${encodeURIComponent(ctx.originalUrl)}`);
    return undefined;
  }
  if (!holdsPermission(principal, permission)) {
    sendHtml(
      ctx,
      renderPage({
        title: 'Not allowed',
        body:
          `<p class="error" role="alert">This page needs the permission <strong>${escapeHtml(permission)}</strong>, ` +
          'which your account does not hold.</p>',
        principal,
        links: visibleLinks(links, principal),
      }),
      { status: 403 },
    );
    return undefined;
  }
  return principal;
}
