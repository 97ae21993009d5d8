/**
 * The OAuth administration page. Secrets are never selected, so they cannot be rendered: clients are
 * read without `secret`, `tenant` and `options`, tokens without `access_token`, `refresh_token` and `raw`.
 */
import { escapeHtml } from '../web-pages';

type Row = Record<string, unknown>;

export interface OAuthPageData {
  providers: Row[];
  clients: Row[];
  tokens: Row[];
  redirectUri: string;
  csrf: string;
  notice?: string;
  error?: string;
  /** Unix seconds, for "expires in". */
  now: number;
}

/** `provider` source as the deployer knows it: core file, private folder, or plugin. */
export function describeSource(source: unknown): string {
  const text = String(source ?? '');
  if (!text) return 'unknown';
  if (text.startsWith('plugin:')) return `plugin ${text.slice('plugin:'.length)}`;
  if (text.startsWith('providers/')) return `core (${text})`;
  return `private folder (${text.replace(/^private:/, '')})`;
}

export function describeExpiry(expires: unknown, now: number): string {
  if (expires === null || expires === undefined || expires === '') return 'no expiry';
  const at = Number(expires);
  const when = new Date(at * 1000).toISOString().replace('.000Z', 'Z');
  const minutes = Math.round((at - now) / 60);
  return at <= now ? `${when} (expired)` : `${when} (in ${minutes} min)`;
}

function describeError(error: unknown): string {
  if (!error) return '—';
  try {
    const parsed = JSON.parse(String(error)) as Row;
    return [parsed.error, parsed.error_description, parsed.time].filter(Boolean).join(': ');
  } catch {
    return String(error);
  }
}

const hidden = (csrf: string, op: string, id?: unknown) =>
  `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="op" value="${op}">${
    id === undefined ? '' : `<input type="hidden" name="id" value="${escapeHtml(id)}">`
  }`;

const button = (csrf: string, op: string, id: unknown, label: string, accessible: string, cls = 'secondary') =>
  `<form method="post" action="/crm/admin/oauth" class="inline-form">${hidden(csrf, op, id)}` +
  `<button type="submit" class="${cls}" aria-label="${escapeHtml(accessible)}">${escapeHtml(label)}</button></form>`;

/** A table head of column headers. */
const head = (columns: string[]) =>
  `<thead><tr>${columns.map((column) => `<th scope="col">${column}</th>`).join('')}</tr></thead>`;

function providersTable(d: OAuthPageData): string {
  const rows = d.providers
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.title)}</td>` +
        `<td>${escapeHtml(describeSource(p.source))}</td></tr>`,
    )
    .join('');
  const caption = 'Providers (files in providers/, the private folder &lt;dataDir&gt;/oauth-providers/, or plugins)';
  return `<table><caption class="muted">${caption}</caption>
${head(['Name', 'Title', 'Came from'])}<tbody>${rows}</tbody></table>`;
}

function clientForm(data: OAuthPageData, client?: Row): string {
  const id = client ? `-${escapeHtml(client.id)}` : '';
  const providerPicker = client
    ? `<p>Provider: <code>${escapeHtml(client.provider)}</code></p>`
    : `<label for="client-provider">Provider</label><select id="client-provider" name="provider" required>${data.providers
        .map((p) => `<option value="${escapeHtml(p.name)}">${escapeHtml(p.title)} (${escapeHtml(p.name)})</option>`)
        .join('')}</select>`;
  const guidField =
    `<label for="client-guid${id}">Client ID at the provider</label>` +
    `<input id="client-guid${id}" name="guid" required value="${escapeHtml(client?.guid ?? '')}" autocomplete="off">`;
  const secretField =
    `<label for="client-secret${id}">Client secret${client ? ' (leave empty to keep the stored one)' : ''}</label>` +
    `<input id="client-secret${id}" name="secret" type="password" autocomplete="new-password" value="">`;
  return `<form method="post" action="/crm/admin/oauth">${hidden(data.csrf, client ? 'update' : 'create', client?.id)}
${providerPicker}
${guidField}
${secretField}
<p><button type="submit">${client ? 'Save client' : 'Add client'}</button></p>
</form>`;
}

function clientsTable(data: OAuthPageData): string {
  if (!data.clients.length) return '<p class="muted">No clients yet: add one below.</p>';
  const rows = data.clients
    .map((c) => {
      const active = c.is_active === true || c.is_active === 1;
      const label = `${String(c.provider)} client ${String(c.guid)}`;
      const state = active ? 'Disable' : 'Enable';
      const buttons =
        (active ? button(data.csrf, 'connect', c.id, 'Connect', `Connect ${label}`, '') : '') +
        button(data.csrf, state.toLowerCase(), c.id, state, `${state} ${label}`) +
        button(data.csrf, 'delete', c.id, 'Delete', `Delete ${label}`, 'danger');
      const cells =
        `<td>${escapeHtml(c.id)}</td><td><code>${escapeHtml(c.provider)}</code></td>` +
        `<td>${escapeHtml(c.guid)}</td><td>${active ? 'enabled' : 'disabled'}</td>`;
      return `<tr>${cells}
<td><div class="actions">${buttons}</div>
<details><summary>Edit</summary>${clientForm(data, c)}</details></td></tr>`;
    })
    .join('');
  return `<table>${head(['ID', 'Provider', 'Client ID', 'State', 'Actions'])}<tbody>${rows}</tbody></table>`;
}

function tokensTable(data: OAuthPageData): string {
  if (!data.tokens.length) return '<p class="muted">No system tokens yet: press Connect on a client.</p>';
  const rows = data.tokens
    .map((t) => {
      const scopes = Array.isArray(t.scopes) ? t.scopes.join(' ') : String(t.scopes ?? '');
      const label = `token ${String(t.id)}`;
      const client = `${escapeHtml(t['client_id.provider'])} / ${escapeHtml(t['client_id.guid'])}`;
      const buttons =
        button(data.csrf, 'refresh', t.id, 'Refresh', `Refresh ${label}`) +
        button(data.csrf, 'revoke', t.id, 'Revoke', `Revoke ${label}`, 'danger');
      return (
        `<tr data-token="${escapeHtml(t.id)}"><td>${escapeHtml(t.id)}</td><td>${client}</td>` +
        `<td>${escapeHtml(t.tag ?? '')}</td><td>${escapeHtml(t.grant_type)}</td>\n` +
        `<td>${escapeHtml(scopes)}</td><td>${escapeHtml(describeExpiry(t.expires, data.now))}</td>` +
        `<td>${escapeHtml(t.resource_owner_name ?? '—')}</td><td>${escapeHtml(describeError(t.error))}</td>\n` +
        `<td><div class="actions">${buttons}</div></td></tr>`
      );
    })
    .join('');
  const columns = [
    'ID',
    'Client',
    'Tag',
    'Grant',
    'Scopes',
    'Expires',
    'Resource owner',
    'Last refresh error',
    'Actions',
  ];
  return `<table>${head(columns)}<tbody>${rows}</tbody></table>`;
}

export function oauthPageBody(data: OAuthPageData): string {
  const publicUrlHint =
    'Set <code>server.publicUrl</code> (or <code>pluginConfig.oauth-client.redirectUri</code>) ' +
    'when the service is reached under another address.';
  return `${data.notice ? `<p class="notice" role="status">${escapeHtml(data.notice)}</p>` : ''}${
    data.error ? `<p class="error" role="alert">${escapeHtml(data.error)}</p>` : ''
  }
<div class="card"><p>Register this <strong>redirect URI</strong> with the provider for each client:</p>
<p><code id="redirect-uri">${escapeHtml(data.redirectUri)}</code></p>
<p class="muted">${publicUrlHint}</p></div>
<h2>Clients</h2>
${clientsTable(data)}
<h2 id="tokens">System tokens</h2>
<p class="muted">Tokens themselves are never shown here; Revoke forgets the token in this service.</p>
${tokensTable(data)}
<h2>Add a client</h2>
<div class="card narrow">${clientForm(data)}</div>
<h2>Providers</h2>
${providersTable(data)}`;
}
