// API Explorer, part 2 of 5 (loaded in order by the explorer page): the params a filled-in form
// describes, with the filter operators and typed values; no DOM.
'use strict';

(function explorerParams(explorer) {
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

  /**
   * The params a filled-in form describes, as APIv4 (select, where, values, orderBy, limit, chain) or
   * APIv3 (return, filters as keys, values, options, api.* chaining) writes them.
   */
  function paramsFor(version, form) {
    const { action, chosen, filters, values, limit, chain, sortBy, sortDir } = form;
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
      if (sortBy) params.orderBy = { [sortBy]: sortDir };
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
    if (sortBy) options.sort = `${sortBy} ${sortDir}`;
    if (limit !== undefined && action.startsWith('get')) options.limit = limit;
    if (Object.keys(options).length) params.options = options;
    return Object.assign(params, chain);
  }

  explorer.OPERATORS = OPERATORS;
  explorer.paramsFor = paramsFor;
})((window.CrmExplorer = window.CrmExplorer || {}));
