// The API Explorer, one implementation for APIv3 and APIv4 (the page's data-version says which).
// Plain browser JavaScript, no build step: it asks the live API for actions (getactions/getActions)
// and fields (getfields/getFields), builds params, runs the call with the session cookie, and shows
// the same request as curl, JavaScript, Python and PHP.
// Part 5 of 5, the page itself (loading actions and fields, examples, running); the explorer page loads,
// in order, explorer-api.js (callApi), explorer-params.js (paramsFor), explorer-code.js (codeFor),
// explorer-controls.js (fill, addRow, readRows), then this; they share window.CrmExplorer.
'use strict';

(function explorer() {
  const root = document.getElementById('explorer');
  if (!root) return;
  const version = Number(root.dataset.version);
  const data = JSON.parse(document.getElementById('explorer-data').textContent);
  const byId = (id) => document.getElementById(id);
  const shared = window.CrmExplorer;
  const { addRow: addControlRow, fill, paramsFor, readRows } = shared;
  const callApi = (entity, action, params) => shared.callApi(version, entity, action, params);
  const codeFor = (lang, entity, action, params) => shared.codeFor(lang, version, entity, action, params);
  const entitySelect = byId('x-entity');
  const actionSelect = byId('x-action');
  const selectFields = byId('x-select');
  const whereRows = byId('x-where');
  const valueRows = byId('x-values');
  const sortField = byId('x-sort-field');
  const sortDir = byId('x-sort-dir');
  const limitInput = byId('x-limit');
  const chainInput = byId('x-chain');
  const paramsInput = byId('x-params');
  const codeBlock = byId('x-code');
  const responseBlock = byId('x-response');
  const statusLine = byId('x-status');
  const examplesList = byId('x-examples-list');
  let fields = [];
  let language = 'curl';

  async function loadActions(entity) {
    const result =
      version === 4
        ? await callApi(entity, 'getActions', { select: ['name'] })
        : await callApi(entity, 'getactions', {});
    const names = version === 4 ? (result.json.values ?? []).map((a) => a.name) : (result.json.values ?? []);
    fill(actionSelect, names);
    const preferred = names.includes('get') ? 'get' : names[0];
    if (preferred) actionSelect.value = preferred;
  }

  async function loadFields(entity, action) {
    const result =
      version === 4
        ? await callApi(entity, 'getFields', { select: ['name', 'title', 'data_type'], loadOptions: false, action })
        : await callApi(entity, 'getfields', { action: action === 'create' ? 'create' : 'get' });
    const values = result.json.values ?? [];
    fields = (Array.isArray(values) ? values : Object.values(values))
      .filter((f) => f && typeof f.name === 'string')
      .map((f) => ({ name: f.name, title: f.title || f.name }));
    const items = fields.map((f) => ({ value: f.name, label: `${f.name} (${f.title})` }));
    fill(selectFields, items);
    fill(sortField, items, '(none)');
    for (const select of document.querySelectorAll('#x-where select.x-field, #x-values select.x-field')) {
      const kept = select.value;
      fill(select, items);
      if (fields.some((f) => f.name === kept)) select.value = kept;
    }
  }

  const addRow = (container, withOperator) =>
    addControlRow(
      container,
      withOperator,
      fields.map((f) => ({ value: f.name, label: f.name })),
      rebuild,
    );

  function buildParams() {
    const readRowsWithField = (container) => readRows(container).filter((r) => r.field);
    let chain = {};
    if (chainInput.value.trim()) {
      try {
        chain = JSON.parse(chainInput.value);
      } catch {
        statusLine.textContent = 'Chaining is not valid JSON; it was left out.';
      }
    }
    return paramsFor(version, {
      action: actionSelect.value,
      chosen: [...selectFields.selectedOptions].map((o) => o.value),
      filters: readRowsWithField(whereRows),
      values: readRowsWithField(valueRows),
      limit: limitInput.value === '' ? undefined : Number(limitInput.value),
      chain,
      sortBy: sortField.value,
      sortDir: sortDir.value,
    });
  }

  function rebuild() {
    paramsInput.value = JSON.stringify(buildParams(), null, 2);
    showCode();
  }

  function currentParams() {
    try {
      return JSON.parse(paramsInput.value || '{}');
    } catch {
      return null;
    }
  }

  function showCode() {
    const params = currentParams();
    codeBlock.textContent = params
      ? codeFor(language, entitySelect.value, actionSelect.value, params)
      : 'The params are not valid JSON.';
  }

  async function chooseEntity(entity, action) {
    entitySelect.value = entity;
    await loadActions(entity);
    if (action) actionSelect.value = action;
    await loadFields(entity, actionSelect.value);
    renderExamples();
  }

  function renderExamples() {
    const mine = data.examples.filter((e) => e.entity === entitySelect.value);
    examplesList.replaceChildren();
    if (!mine.length) {
      const none = document.createElement('li');
      none.className = 'muted';
      none.textContent = 'No examples for this entity.';
      examplesList.append(none);
    }
    for (const example of mine) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'secondary';
      button.textContent = example.name;
      button.dataset.example = example.name;
      button.addEventListener('click', () => loadExample(example));
      item.append(button);
      if (example.description) {
        const text = document.createElement('span');
        text.className = 'muted';
        text.textContent = ` ${example.description}`;
        item.append(text);
      }
      examplesList.append(item);
    }
  }

  async function loadExample(example) {
    if (entitySelect.value !== example.entity || actionSelect.value !== example.action)
      await chooseEntity(example.entity, example.action);
    actionSelect.value = example.action;
    paramsInput.value = JSON.stringify(example.params, null, 2);
    statusLine.textContent = `Example "${example.name}" loaded: run it, or edit the params first.`;
    showCode();
  }

  async function run(event) {
    event.preventDefault();
    const params = currentParams();
    if (!params) {
      statusLine.textContent = 'The params are not valid JSON.';
      return;
    }
    statusLine.textContent = 'Running…';
    const started = performance.now();
    const result = await callApi(entitySelect.value, actionSelect.value, params);
    const failed = result.status >= 400 || result.json.is_error === 1 || result.json.error_code !== undefined;
    statusLine.textContent = `HTTP ${result.status} in ${Math.round(performance.now() - started)} ms${failed ? ' (error)' : ''}`;
    statusLine.className = failed ? 'status-error' : '';
    responseBlock.textContent = JSON.stringify(result.json, null, 2);
  }

  for (const tab of document.querySelectorAll('#x-tabs button')) {
    tab.addEventListener('click', () => {
      language = tab.dataset.lang;
      for (const other of document.querySelectorAll('#x-tabs button'))
        other.setAttribute('aria-pressed', String(other === tab));
      showCode();
    });
  }
  entitySelect.addEventListener('change', async () => {
    await chooseEntity(entitySelect.value);
    rebuild();
  });
  actionSelect.addEventListener('change', async () => {
    await loadFields(entitySelect.value, actionSelect.value);
    rebuild();
  });
  byId('x-add-where').addEventListener('click', () => {
    addRow(whereRows, true).querySelector('select').focus();
    rebuild();
  });
  byId('x-add-value').addEventListener('click', () => {
    addRow(valueRows, false).querySelector('select').focus();
    rebuild();
  });
  byId('x-builder').addEventListener('input', rebuild);
  byId('x-builder').addEventListener('change', rebuild);
  paramsInput.addEventListener('input', showCode);
  byId('explorer-form').addEventListener('submit', run);

  const initial = new URLSearchParams(window.location.search);
  const startEntity = data.entities.includes(initial.get('entity'))
    ? initial.get('entity')
    : data.entities.includes('Contact')
      ? 'Contact'
      : data.entities[0];
  if (startEntity)
    chooseEntity(startEntity, initial.get('action') || undefined).then(() => {
      rebuild();
      root.dataset.ready = 'true';
    });
})();
