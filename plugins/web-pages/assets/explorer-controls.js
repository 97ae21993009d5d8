// API Explorer, part 4 of 5 (loaded in order by the explorer page): form controls: options of a
// select, and the filter and value rows (added, removed, read back).
'use strict';

(function explorerControls(explorer) {
  const { OPERATORS } = explorer;

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

  let rowCounter = 0;
  /**
   * A filter row (field, operator, value) or a value row (field, value), each control labelled, appended to
   * `container`; its Remove button removes it and calls `onRemove`.
   */
  function addRow(container, withOperator, fieldItems, onRemove) {
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
    fill(field, fieldItems);
    if (withOperator) fill(make('select', 'Operator', 'op'), OPERATORS);
    make('input', 'Value', 'value').type = 'text';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'secondary';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', withOperator ? 'Remove this filter' : 'Remove this value');
    remove.addEventListener('click', () => {
      row.remove();
      onRemove();
    });
    row.append(remove);
    container.append(row);
    return row;
  }

  function readRows(container) {
    return [...container.querySelectorAll('.row')].map((row) => ({
      field: row.querySelector('.x-field').value,
      op: row.querySelector('.x-op')?.value,
      value: row.querySelector('.x-value').value,
    }));
  }

  explorer.fill = fill;
  explorer.addRow = addRow;
  explorer.readRows = readRows;
})((window.CrmExplorer = window.CrmExplorer || {}));
