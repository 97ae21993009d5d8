/**
 * The API Explorer page, one implementation for `/crm/api3` and `/crm/api4`: the server renders the
 * form (labelled controls) and the entities the caller may use; `assets/explorer*.js` ask the live API
 * for actions and fields and run the calls.
 */
import type { Principal } from '../../kernel';
import type { ExplorerExample } from './hooks';
import { ASSET_PREFIX, escapeHtml, jsonForScript } from './layout';
import { canRun, listActions, type Scope } from './platform';

/** Entities of one API version on which the caller may run at least one action, sorted. */
export async function entitiesFor(scope: Scope, principal: Principal, version: 3 | 4): Promise<string[]> {
  const byEntity = new Map<string, string[]>();
  for (const a of listActions(scope, version)) byEntity.set(a.entity, [...(byEntity.get(a.entity) ?? []), a.action]);
  const allowed: string[] = [];
  for (const [entity, actions] of byEntity) {
    for (const action of actions) {
      if (await canRun(scope, principal, version, entity, action)) {
        allowed.push(entity);
        break;
      }
    }
  }
  return allowed.sort();
}

export function explorerBody(version: 3 | 4, entities: string[], examples: ExplorerExample[]): string {
  const other = version === 4 ? 3 : 4;
  const data = { version, entities, examples };
  const paramsHelp =
    version === 4
      ? 'The APIv4 <code>params</code> object: select, where, orderBy, limit, values, chain.'
      : 'The APIv3 <code>json</code> object: filters, return, options (sort, limit), values, api.* chaining.';
  return `<p>Build a call, run it against the live API with your session, and copy it as code.
This is APIv${version}; <a href="/crm/api${other}">switch to APIv${other}</a>.</p>
<script type="application/json" id="explorer-data">${jsonForScript(data)}</script>
<div id="explorer" class="explorer" data-version="${version}">
<form id="explorer-form" novalidate>
<fieldset><legend>Call</legend>
<div class="row">
<div><label for="x-entity">Entity</label><select id="x-entity" name="entity">
${entities.map((e) => `<option value="${escapeHtml(e)}">${escapeHtml(e)}</option>`).join('')}
</select></div>
<div><label for="x-action">Action</label><select id="x-action" name="action"></select></div>
</div>
</fieldset>
<fieldset><legend>Examples</legend>
<p class="muted">Example calls plugins supply for the chosen entity: loading one fills the params.</p>
<ul id="x-examples-list" class="examples"></ul>
</fieldset>
<fieldset id="x-builder"><legend>Build the params</legend>
<label for="x-select">${version === 4 ? 'Select (fields to return)' : 'Return (fields to return)'}</label>
<select id="x-select" multiple size="6"></select>
<h2 class="sub">Filters</h2>
<div id="x-where"></div>
<p><button type="button" id="x-add-where" class="secondary">Add a filter</button></p>
<h2 class="sub">Values (create, update, save)</h2>
<div id="x-values"></div>
<p><button type="button" id="x-add-value" class="secondary">Add a value</button></p>
<div class="row">
<div><label for="x-sort-field">Sort by</label><select id="x-sort-field"></select></div>
<div><label for="x-sort-dir">Direction</label><select id="x-sort-dir"><option>ASC</option><option>DESC</option></select></div>
<div><label for="x-limit">Limit</label><input id="x-limit" type="number" min="0" value="25"></div>
</div>
<label for="x-chain">Chaining (JSON object)</label>
<textarea id="x-chain" rows="3" placeholder="${
    version === 4
      ? escapeHtml('{"emails": ["Email", "get", {"where": [["contact_id", "=", "$id"]]}]}')
      : escapeHtml('{"api.Email.get": {}}')
  }"></textarea>
</fieldset>
<label for="x-params">Params (JSON; edit freely before running)</label>
<textarea id="x-params" rows="10" spellcheck="false"></textarea>
<p class="muted">${paramsHelp}</p>
<p><button type="submit" id="x-run">Run</button> <span id="x-status" role="status"></span></p>
</form>
<div>
<h2>Request as code</h2>
<div id="x-tabs" class="tabs" role="group" aria-label="Language">
<button type="button" data-lang="curl" aria-pressed="true">curl</button>
<button type="button" data-lang="js" aria-pressed="false">JavaScript (fetch)</button>
<button type="button" data-lang="python" aria-pressed="false">Python (requests)</button>
<button type="button" data-lang="php" aria-pressed="false">PHP</button>
</div>
<pre id="x-code" tabindex="0" aria-label="Request as code"></pre>
<h2>Response</h2>
<pre id="x-response" tabindex="0" aria-label="Response" aria-live="polite"></pre>
</div>
</div>`;
}

/** The explorer's plain scripts, in the order the page loads them (deferred scripts run in document order). */
export const explorerScripts = [
  'explorer-api.js',
  'explorer-params.js',
  'explorer-code.js',
  'explorer-controls.js',
  'explorer.js',
].map((name) => `${ASSET_PREFIX}/${name}`);
