/** The login and logout pages, in the shared look of web-pages. Every value put in the HTML is escaped. */
import { escapeHtml, loginForm, renderPage } from '../web-pages';

export function loginPage(destination: string, csrf: string, error?: string): string {
  return renderPage({ title: 'Log in', body: loginForm({ destination, csrf, error }), current: '/crm/login' });
}

export function logoutPage(csrf: string | undefined): string {
  return renderPage({
    title: 'Log out',
    body:
      '<form method="post" action="/crm/logout" class="card narrow">' +
      `<input type="hidden" name="csrf" value="${escapeHtml(csrf ?? '')}">` +
      '<p>End this session on this browser.</p><p><button type="submit">Log out</button></p></form>',
  });
}
