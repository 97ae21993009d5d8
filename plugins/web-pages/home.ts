/** The home page: what the service is, where to go next, and the login form for a visitor. */
import type { Principal } from '../../kernel';
import type { WebLink } from './hooks';
import { escapeHtml, isLoggedIn } from './layout';
import { loginForm } from './login-form';

export interface HomeOptions {
  principal: Principal;
  links: WebLink[];
  /** Pre-login CSRF token, for the login form shown to visitors. */
  loginCsrf?: string;
  version: string;
}

const API_ENDPOINTS =
  'APIv3: <code>POST /crm/ajax/rest</code> with <code>entity</code>, <code>action</code>, <code>json</code>; ' +
  'APIv4: <code>POST /crm/ajax/api4/{Entity}/{action}</code> with <code>params</code>.';

export function homeBody(opts: HomeOptions): string {
  const cards = opts.links
    .map(
      (l) =>
        `<div class="card"><h2><a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></h2><p>${escapeHtml(l.description)}</p></div>`,
    )
    .join('\n');
  const who = isLoggedIn(opts.principal)
    ? `<p>You are logged in as contact ${escapeHtml(opts.principal.contactId)}.</p>`
    : `<h2>Log in</h2>
<p>The first start printed an administrator's username and password; more users: <code>npx crm user add &lt;name&gt;</code>.</p>
${loginForm({ destination: '/', csrf: opts.loginCsrf ?? '' })}`;
  return `<p>A contact-management service (version ${escapeHtml(opts.version)}) speaking the APIv3 and APIv4 protocols over
REST, with an OAuth2 client for connecting outside accounts. Everything below works against the live service.</p>
${who}
<h2>Start here</h2>
<div class="cards">
${cards || '<p class="muted">Log in to see the pages you may use.</p>'}
</div>
<h2>For developers</h2>
<ul>
<li>${API_ENDPOINTS}</li>
<li>Authenticate scripts with <code>X-Crm-Auth: Bearer &lt;API key&gt;</code> (<code>npx crm key create --user &lt;name&gt;</code>).</li>
<li>The <code>docs/</code> folder of the source holds the guides (authentication, OAuth, plugin authoring, deploying).</li>
</ul>`;
}
