// API Explorer, part 1 of 5 (loaded in order by the explorer page): one call to the live API.
'use strict';

(function explorerApi(explorer) {
  /** One POST to the live API with the session cookie; returns the decoded JSON body. */
  async function callApi(version, entity, action, params) {
    const body =
      version === 4
        ? new URLSearchParams({ params: JSON.stringify(params) })
        : new URLSearchParams({ entity, action, json: JSON.stringify(params) });
    const url =
      version === 4 ? `/crm/ajax/api4/${encodeURIComponent(entity)}/${encodeURIComponent(action)}` : '/crm/ajax/rest';
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
      body,
    });
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { error_message: text.slice(0, 500) };
    }
    return { status: response.status, json };
  }

  explorer.callApi = callApi;
})((window.CrmExplorer = window.CrmExplorer || {}));
