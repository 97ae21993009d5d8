// API Explorer, part 3 of 5 (loaded in order by the explorer page): the request as code in curl,
// JavaScript (fetch), Python (requests) and PHP; no DOM.
'use strict';

(function explorerCode(explorer) {
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
  function codeFor(lang, version, entity, action, params) {
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

  explorer.codeFor = codeFor;
})((window.CrmExplorer = window.CrmExplorer || {}));
