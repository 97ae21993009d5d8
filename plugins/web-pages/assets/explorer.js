// The API Explorer, one implementation for APIv3 and APIv4 (the page's data-version says which).
// Plain browser JavaScript, no build step: it asks the live API for actions (getactions/getActions)
// and fields (getfields/getFields), builds params, runs the call with the session cookie, and shows
// the same request as curl, JavaScript, Python and PHP.
'use strict';

(function explorer() {
  const root = document.getElementById('explorer');
  if (!root) return;
  const version = Number(root.dataset.version);
  const data = JSON.parse(document.getElementById('explorer-data').textContent);
  const byId = (id) => document.getElementById(id);
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
  const OPERATORS = [
    '=',
    '!=',
    '>',
    '>=',
    '<',
    '<=',
    'LIKE',
    'NOT LIKE',
    'IN',
    'NOT IN',
    'BETWEEN',
    'IS NULL',
    'IS NOT NULL',
  ];
  const WRITE_ACTIONS = ['create', 'update', 'save', 'replace'];
  let fields = [];
  let language = 'curl';

  /** One POST to the live API with the session cookie; returns the decoded JSON body. */
  async function callApi(entity, action, params) {
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

  function option(value, label) {
    const el = document.createElement('option');
    el.value = value;
    el.textContent = label ?? value;
    return el;
  }

  function fill(select, items, placeholder) {
    select.replaceChildren();
    if (placeholder !== undefined) select.append(option('', placeholder));
    for (const item of items) select.append(typeof item === 'string' ? option(item) : option(item.value, item.label));
  }

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

  let rowCounter = 0;
  /** A filter row (field, operator, value) or a value row (field, value), each control labelled. */
  function addRow(container, withOperator) {
    rowCounter += 1;
    const row = document.createElement('div');
    row.className = 'row';
    const make = (tag, label, cls) => {
      const id = `x-row-${rowCounter}-${cls}`;
      const wrap = document.createElement('div');
      const lab = document.createElement('label');
      lab.htmlFor = id;
      lab.textContent = label;
      const control = document.createElement(tag);
      control.id = id;
      control.className = `x-${cls}`;
      wrap.append(lab, control);
      row.append(wrap);
      return control;
    };
    const field = make('select', 'Field', 'field');
    fill(
      field,
      fields.map((f) => ({ value: f.name, label: f.name })),
    );
    if (withOperator) fill(make('select', 'Operator', 'op'), OPERATORS);
    make('input', 'Value', 'value').type = 'text';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'secondary';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', withOperator ? 'Remove this filter' : 'Remove this value');
    remove.addEventListener('click', () => {
      row.remove();
      rebuild();
    });
    row.append(remove);
    container.append(row);
    return row;
  }

  /** A typed value from a text box: JSON when it parses (numbers, true, null, lists), else the text. */
  function typed(text) {
    const trimmed = text.trim();
    if (trimmed === '') return '';
    try {
      return JSON.parse(trimmed);
    } catch {
      return text;
    }
  }
  const list = (text) => text.split(',').map((part) => typed(part));

  function readRows(container) {
    return [...container.querySelectorAll('.row')].map((row) => ({
      field: row.querySelector('.x-field').value,
      op: row.querySelector('.x-op')?.value,
      value: row.querySelector('.x-value').value,
    }));
  }

  function buildParams() {
    const action = actionSelect.value;
    const chosen = [...selectFields.selectedOptions].map((o) => o.value);
    const filters = readRows(whereRows).filter((r) => r.field);
    const values = readRows(valueRows).filter((r) => r.field);
    const limit = limitInput.value === '' ? undefined : Number(limitInput.value);
    let chain = {};
    if (chainInput.value.trim()) {
      try {
        chain = JSON.parse(chainInput.value);
      } catch {
        statusLine.textContent = 'Chaining is not valid JSON; it was left out.';
      }
    }
    const params = {};
    if (version === 4) {
      if (chosen.length) params.select = chosen;
      if (filters.length)
        params.where = filters.map((f) =>
          f.op === 'IS NULL' || f.op === 'IS NOT NULL'
            ? [f.field, f.op]
            : [f.field, f.op, ['IN', 'NOT IN', 'BETWEEN'].includes(f.op) ? list(f.value) : typed(f.value)],
        );
      if (WRITE_ACTIONS.includes(action) && values.length)
        params.values = Object.fromEntries(values.map((v) => [v.field, typed(v.value)]));
      if (sortField.value) params.orderBy = { [sortField.value]: sortDir.value };
      if (limit !== undefined && action === 'get') params.limit = limit;
      if (Object.keys(chain).length) params.chain = chain;
      return params;
    }
    if (chosen.length) params.return = chosen;
    for (const condition of filters) {
      if (condition.op === '=') params[condition.field] = typed(condition.value);
      else if (condition.op === 'IS NULL' || condition.op === 'IS NOT NULL')
        params[condition.field] = { [condition.op]: 1 };
      else
        params[condition.field] = {
          [condition.op]: ['IN', 'NOT IN', 'BETWEEN'].includes(condition.op)
            ? list(condition.value)
            : typed(condition.value),
        };
    }
    for (const assignment of values) params[assignment.field] = typed(assignment.value);
    const options = {};
    if (sortField.value) options.sort = `${sortField.value} ${sortDir.value}`;
    if (limit !== undefined && action.startsWith('get')) options.limit = limit;
    if (Object.keys(options).length) params.options = options;
    return Object.assign(params, chain);
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

  const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;
  const phpString = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  function python(value, indent = '') {
    const next = `${indent}    `;
    if (value === null) return 'None';
    if (value === true) return 'True';
    if (value === false) return 'False';
    if (typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
    if (Array.isArray(value))
      return value.length ? `[\n${value.map((v) => next + python(v, next)).join(',\n')},\n${indent}]` : '[]';
    const entries = Object.entries(value);
    return entries.length
      ? `{\n${entries.map(([k, v]) => `${next}${JSON.stringify(k)}: ${python(v, next)}`).join(',\n')},\n${indent}}`
      : '{}';
  }
  function php(value, indent = '') {
    const next = `${indent}  `;
    if (value === null) return 'NULL';
    if (value === true) return 'TRUE';
    if (value === false) return 'FALSE';
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string') return phpString(value);
    if (Array.isArray(value))
      return value.length ? `[\n${value.map((v) => next + php(v, next)).join(',\n')},\n${indent}]` : '[]';
    const entries = Object.entries(value);
    return entries.length
      ? `[\n${entries.map(([k, v]) => `${next}${phpString(k)} => ${php(v, next)}`).join(',\n')},\n${indent}]`
      : '[]';
  }

  /** The request as code: the real end-point, an API key placeholder, the params exactly as sent. */
  function codeFor(lang, entity, action, params) {
    const base = window.location.origin;
    const json = JSON.stringify(params);
    const url = version === 4 ? `${base}/crm/ajax/api4/${entity}/${action}` : `${base}/crm/ajax/rest`;
    const form = version === 4 ? { params: json } : { entity, action, json };
    if (lang === 'curl')
      return [
        `curl -X POST ${shellQuote(url)} \\`,
        "  -H 'X-Crm-Auth: Bearer YOUR_API_KEY' \\",
        "  -H 'X-Requested-With: XMLHttpRequest' \\",
        ...Object.entries(form).map(
          ([k, v], i, all) => `  --data-urlencode ${shellQuote(`${k}=${v}`)}${i < all.length - 1 ? ' \\' : ''}`,
        ),
      ].join('\n');
    if (lang === 'js') {
      const body =
        version === 4
          ? 'params: JSON.stringify(params)'
          : `entity: ${JSON.stringify(entity)}, action: ${JSON.stringify(action)}, json: JSON.stringify(params)`;
      return [
        `const params = ${JSON.stringify(params, null, 2)};`,
        `const response = await fetch(${JSON.stringify(url)}, {`,
        "  method: 'POST',",
        "  headers: { 'X-Crm-Auth': 'Bearer YOUR_API_KEY', 'X-Requested-With': 'XMLHttpRequest' },",
        `  body: new URLSearchParams({ ${body} }),`,
        '});',
        'const result = await response.json();',
      ].join('\n');
    }
    if (lang === 'python') {
      const data =
        version === 4
          ? "{'params': json.dumps(params)}"
          : `{'entity': ${JSON.stringify(entity)}, 'action': ${JSON.stringify(action)}, 'json': json.dumps(params)}`;
      return [
        'import json',
        'import requests',
        '',
        `params = ${python(params)}`,
        'response = requests.post(',
        `    ${JSON.stringify(url)},`,
        "    headers={'X-Crm-Auth': 'Bearer YOUR_API_KEY', 'X-Requested-With': 'XMLHttpRequest'},",
        `    data=${data},`,
        ')',
        'result = response.json()',
      ].join('\n');
    }
    const fields =
      version === 4
        ? "['params' => json_encode($params)]"
        : `['entity' => ${phpString(entity)}, 'action' => ${phpString(action)}, 'json' => json_encode($params)]`;
    return [
      '<?php',
      `$params = ${php(params)};`,
      `$curl = curl_init(${phpString(url)});`,
      'curl_setopt_array($curl, [',
      '  CURLOPT_POST => TRUE,',
      "  CURLOPT_HTTPHEADER => ['X-Crm-Auth: Bearer YOUR_API_KEY', 'X-Requested-With: XMLHttpRequest'],",
      `  CURLOPT_POSTFIELDS => http_build_query(${fields}),`,
      '  CURLOPT_RETURNTRANSFER => TRUE,',
      ']);',
      '$result = json_decode(curl_exec($curl), TRUE);',
      `// Inside CiviCRM itself the same call is civicrm_api${version}(${phpString(entity)}, ${phpString(action)}, $params);`,
    ].join('\n');
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
