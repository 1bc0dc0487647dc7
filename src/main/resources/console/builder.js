// Cairn console, the expression builder: compose a read or a write, see its expressions, placeholders, request and
// snippets as you type (the server renders them, and says at each field what DynamoDB would refuse), run reads.
// Loaded after console.js, whose helpers ($, el, call, itemTable, legend, plural, problem, setStatus) it uses.
'use strict';

const TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'L', 'M', 'SS', 'NS', 'BS'];
const KEY_OPS = ['=', '<', '<=', '>', '>=', 'between', 'begins_with'];
const TEST_OPS = ['=', '<>', '<', '<=', '>', '>=', 'between', 'in', 'begins_with', 'contains', 'attribute_exists',
  'attribute_not_exists', 'attribute_type'];
const SET_FUNCTIONS = [['', 'value'], ['if_not_exists', 'if_not_exists'], ['list_append', 'list_append (at the end)'],
  ['list_prepend', 'list_append (in front)'], ['plus', '+ (add to it)'], ['minus', '- (take from it)']];
const HINTS = { N: 'a number', B: 'base64', BOOL: 'true or false', NULL: '(no value)', L: 'JSON array: ["a", 1]',
  M: 'JSON object: {"city": "Oslo"}', SS: 'JSON array of strings', NS: 'JSON array of numbers', BS: 'JSON array of base64' };

const builder = {
  shape: null,
  spec: null,
  next: null,
  items: [],
  timer: null,
  sequence: 0,
};

async function post(path, body) {
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const token = tokenInput.value.trim();
  if (token) headers.Authorization = 'Bearer ' + token;
  const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = text; }
  return { ok: response.ok, status: response.status, body: parsed, calls: response.headers.get('X-DynamoDB-Calls'),
    capacity: response.headers.get('X-DynamoDB-Capacity') };
}

const operand = (type = 'S', value = '') => ({ type, value, alias: null, typed: false });

// DOM append, taking nested lists as el() does.
function put(node, ...children) {
  node.append(...children.flat(Infinity));
}

function target() {
  const name = builder.spec.index || 'table';
  return builder.shape.targets.find(t => t.name === name) || builder.shape.targets[0];
}

// The type the models (or the key schema) give an attribute: the default of a value compared with it.
function declaredType(path) {
  if (!builder.shape || !path) return null;
  const top = path.split(/[.[]/)[0];
  if (top !== path) return null;
  return builder.shape.keyTypes[path] || (builder.shape.attributes[path] && builder.shape.attributes[path].type) || null;
}

function defaultKey(operation) {
  const t = operation === 'Query' || operation === 'Scan' ? target() : builder.shape.targets[0];
  if (operation === 'Scan') return [];
  const names = operation === 'Query' ? t.partition : t.partition.concat(t.sort);
  return names.map(name => ({ op: '=', path: name, values: [operand(declaredType(name) || 'S')] }));
}

function freshSpec() {
  return { operation: 'Query', index: 'table', key: [], filter: null, projection: '', descending: false, limit: 25,
    consistent: false, condition: null, update: [], names: {} };
}

// --- the spec as the server reads it ----------------------------------------------------------------------------

function wireOperand(o) {
  return { type: o.type, value: o.value, alias: o.alias || null };
}

function wireNode(node) {
  let out;
  if (node.op === 'and' || node.op === 'or') {
    out = { op: node.op, clauses: node.clauses.map(wireNode) };
  } else {
    out = { op: node.op, path: node.path, size: !!node.size, values: node.values.map(wireOperand) };
  }
  return node.negate ? { op: 'not', clauses: [out] } : out;
}

function wireSpec() {
  const s = builder.spec;
  const read = s.operation !== 'UpdateItem';
  const out = { operation: s.operation, index: s.index === 'table' ? null : s.index,
    key: s.key.map(k => ({ op: k.op, path: k.path, values: k.values.map(wireOperand) })), names: s.names };
  if (read && s.operation !== 'GetItem' && s.filter) out.filter = wireNode(s.filter);
  if (read && s.projection.trim()) out.projection = s.projection.split(',').map(p => p.trim()).filter(Boolean);
  if (s.operation === 'Query') out.descending = s.descending;
  if (s.operation === 'Query' || s.operation === 'Scan') out.limit = Number(s.limit) || null;
  if (read) out.consistent = s.consistent;
  if (!read) {
    if (s.condition) out.condition = wireNode(s.condition);
    out.update = s.update.map(a => ({ action: a.action, path: a.path, function: a.function || null,
      value: a.action === 'REMOVE' ? null : wireOperand(a.value) }));
  }
  return out;
}

// A spec from the server (an access pattern's) as the editor's state: NOT nodes become a flag on what they negate.
function fromWire(spec) {
  const node = n => {
    if (n.op === 'not') { const inner = node(n.clauses[0]); inner.negate = !inner.negate; return inner; }
    if (n.op === 'and' || n.op === 'or') return { op: n.op, clauses: n.clauses.map(node), negate: false };
    return { op: n.op, path: n.path, size: !!n.size, negate: false,
      values: (n.values || []).map(v => ({ type: v.type, value: v.value, alias: v.alias, typed: true })) };
  };
  const group = n => { if (!n) return null; const g = node(n); return g.clauses ? g : { op: 'and', clauses: [g], negate: false }; };
  return { operation: spec.operation, index: spec.index || 'table',
    key: spec.key.map(k => ({ op: k.op, path: k.path, values: k.values.map(v => ({ type: v.type, value: v.value, alias: v.alias, typed: true })) })),
    filter: group(spec.filter), projection: (spec.projection || []).join(', '), descending: !!spec.descending,
    limit: spec.limit || 25, consistent: !!spec.consistent, condition: group(spec.condition),
    update: (spec.update || []).map(a => ({ action: a.action, path: a.path, function: a.function || '', value: a.value || operand() })),
    names: Object.assign({}, spec.names || {}) };
}

// --- the editors --------------------------------------------------------------------------------------------------

function select(options, value, attrs, onChange) {
  const node = el('select', attrs, options.map(o => {
    const [v, label] = Array.isArray(o) ? o : [o, o];
    return el('option', { value: v, selected: v === value }, label);
  }));
  node.value = value ?? '';
  node.addEventListener('change', () => onChange(node.value));
  return node;
}

function textInput(value, attrs, onInput, onChange) {
  const { list, ...rest } = attrs;
  const node = el('input', Object.assign({ value: value ?? '', autocomplete: 'off', spellcheck: false }, rest));
  if (list) node.setAttribute('list', list); // a read-only property: only the attribute names the datalist
  node.addEventListener('input', () => onInput(node.value));
  if (onChange) node.addEventListener('change', onChange);
  return node;
}

function removeButton(onClick, title) {
  const b = el('button', { type: 'button', class: 'remove', title }, '×');
  b.addEventListener('click', onClick);
  return b;
}

function valueEditor(v, field, pathOf, fixedType) {
  const input = textInput(v.value, { class: 'value', 'data-field': field, placeholder: HINTS[v.type] || 'a value',
    disabled: v.type === 'NULL' }, text => { v.value = text; changed(); });
  if (fixedType) return el('span', { class: 'operand' }, input);
  const type = select(TYPES, v.type, { class: 'value-type', 'data-field': field + '.type', title: 'the value\'s DynamoDB type' },
    t => { v.type = t; v.typed = true; input.placeholder = HINTS[t] || 'a value'; input.disabled = t === 'NULL'; changed(); });
  // Until the user picks a type, it follows the attribute's declared one (also when the attribute is changed).
  v.followDeclared = () => {
    const declared = pathOf();
    if (!v.typed && declared && declared !== v.type) {
      v.type = declared; type.value = declared; input.placeholder = HINTS[declared] || 'a value'; input.disabled = declared === 'NULL';
    }
  };
  v.followDeclared();
  return el('span', { class: 'operand' }, type, input);
}

function follow(node) {
  (node.values || []).forEach(v => v.followDeclared && v.followDeclared());
  changed();
}

function arity(op) {
  if (op === 'between') return 2;
  if (op === 'attribute_exists' || op === 'attribute_not_exists') return 0;
  return op === 'in' ? -1 : 1;
}

function fitValues(node, type) {
  const n = arity(node.op);
  if (n === -1) { if (node.values.length < 1) node.values.push(operand(type)); return; }
  while (node.values.length < n) node.values.push(operand(node.op === 'attribute_type' ? 'S' : type));
  node.values.length = n;
  if (node.op === 'attribute_type') node.values.forEach(v => { v.type = 'S'; v.typed = true; if (!TYPES.includes(v.value)) v.value = 'S'; });
}

function keyRow(k, i) {
  const field = `key[${i}]`;
  const typeOf = () => declaredType(k.path) || 'S';
  const row = el('div', { class: 'row key-row', 'data-field': field });
  const render = () => {
    row.textContent = '';
    put(row, 
      textInput(k.path, { class: 'path', 'data-field': field + '.path', list: 'builder-keys', placeholder: 'key attribute' },
        p => { k.path = p; changed(); }, () => follow(k)),
      select(KEY_OPS, k.op, { class: 'op', 'data-field': field + '.op' }, op => { k.op = op; fitValues(k, typeOf()); render(); changed(); }),
      k.values.map((v, j) => valueEditor(v, `${field}.values[${j}]`, () => declaredType(k.path))),
      removeButton(() => { builder.spec.key.splice(i, 1); renderEditors(); changed(); }, 'remove this key condition'));
  };
  render();
  return row;
}

function testRow(node, field, remove) {
  const own = node.negate ? field + '.clauses[0]' : field;
  const row = el('div', { class: 'row test-row', 'data-field': field });
  const render = () => {
    row.textContent = '';
    const not = el('input', { type: 'checkbox', class: 'negate', checked: node.negate, title: 'NOT' });
    not.addEventListener('change', () => { node.negate = not.checked; renderEditors(); changed(); });
    const size = el('input', { type: 'checkbox', class: 'size', checked: !!node.size, title: 'compare size(attribute)' });
    size.addEventListener('change', () => { node.size = size.checked; node.values.forEach(v => { if (size.checked) { v.type = 'N'; v.typed = true; } }); render(); changed(); });
    const values = node.op === 'attribute_type'
      ? node.values.map((v, j) => select(TYPES, v.value, { class: 'value', 'data-field': `${own}.values[${j}]` }, t => { v.value = t; changed(); }))
      : node.values.map((v, j) => valueEditor(v, `${own}.values[${j}]`, () => node.size ? 'N' : declaredType(node.path)));
    const more = node.op === 'in' ? el('button', { type: 'button', class: 'add-value' }, '+ value') : '';
    if (more) more.addEventListener('click', () => { node.values.push(operand(node.values[0] ? node.values[0].type : 'S')); render(); changed(); });
    put(row, el('label', { class: 'not' }, not, 'NOT'),
      el('label', { class: 'size-label' }, size, 'size()'),
      textInput(node.path, { class: 'path', 'data-field': own + '.path', list: 'builder-attributes', placeholder: 'attribute or a.b[0]' },
        p => { node.path = p; changed(); }, () => follow(node)),
      select(TEST_OPS, node.op, { class: 'op', 'data-field': own + '.op' }, op => { node.op = op; fitValues(node, declaredType(node.path) || 'S'); render(); changed(); }),
      values, more, removeButton(remove, 'remove this test'));
  };
  render();
  return row;
}

function groupBox(group, field, remove, title) {
  const own = group.negate ? field + '.clauses[0]' : field;
  const box = el('div', { class: 'group-box', 'data-field': field });
  const not = el('input', { type: 'checkbox', class: 'negate', checked: group.negate, title: 'NOT' });
  not.addEventListener('change', () => { group.negate = not.checked; renderEditors(); changed(); });
  const addTest = el('button', { type: 'button', class: 'add-test' }, '+ test');
  addTest.addEventListener('click', () => { group.clauses.push({ op: '=', path: '', size: false, negate: false, values: [operand()] }); renderEditors(); changed(); });
  const addGroup = el('button', { type: 'button', class: 'add-group' }, '+ group');
  addGroup.addEventListener('click', () => { group.clauses.push({ op: group.op === 'and' ? 'or' : 'and', clauses: [], negate: false }); renderEditors(); changed(); });
  put(box, el('div', { class: 'group-head' }, title ? el('strong', {}, title + ' ') : '',
    el('label', { class: 'not' }, not, 'NOT'),
    select([['and', 'all of (AND)'], ['or', 'any of (OR)']], group.op, { class: 'junction', 'data-field': own + '.op' },
      op => { group.op = op; changed(); }),
    addTest, addGroup, removeButton(remove, 'remove this group')));
  group.clauses.forEach((child, i) => {
    const childField = `${own}.clauses[${i}]`;
    const drop = () => { group.clauses.splice(i, 1); renderEditors(); changed(); };
    put(box, child.clauses ? groupBox(child, childField, drop) : testRow(child, childField, drop));
  });
  return box;
}

function updateRow(a, i) {
  const field = `update[${i}]`;
  const row = el('div', { class: 'row update-row', 'data-field': field });
  const render = () => {
    row.textContent = '';
    put(row, 
      select(['SET', 'REMOVE', 'ADD', 'DELETE'], a.action, { class: 'action', 'data-field': field + '.action' },
        v => { a.action = v; if (v !== 'SET') a.function = ''; render(); changed(); }),
      textInput(a.path, { class: 'path', 'data-field': field + '.path', list: 'builder-attributes', placeholder: 'attribute or a.b[0]' },
        p => { a.path = p; changed(); }, () => follow({ values: [a.value] })),
      a.action === 'SET' ? select(SET_FUNCTIONS, a.function || '', { class: 'function', 'data-field': field + '.function' },
        f => { a.function = f; if (f.startsWith('list_')) { a.value.type = 'L'; a.value.typed = true; }
          if (f === 'plus' || f === 'minus') { a.value.type = 'N'; a.value.typed = true; } render(); changed(); }) : '',
      a.action === 'REMOVE' ? '' : valueEditor(a.value, field + '.value', () => declaredType(a.path)),
      removeButton(() => { builder.spec.update.splice(i, 1); renderEditors(); changed(); }, 'remove this action'));
  };
  render();
  return row;
}

function section(title, field, ...children) {
  return el('fieldset', { class: 'builder-section', 'data-field': field }, el('legend', {}, title), children);
}

function renderEditors() {
  const s = builder.spec;
  const root = $('#builder-editor');
  root.textContent = '';
  const read = s.operation !== 'UpdateItem';
  $('#builder-operation').value = s.operation;
  const index = $('#builder-index');
  index.value = s.index;
  index.disabled = s.operation === 'GetItem' || s.operation === 'UpdateItem';
  $('#builder-order').value = s.descending ? 'desc' : 'asc';
  $('#builder-order').disabled = s.operation !== 'Query';
  $('#builder-limit').value = s.limit;
  $('#builder-limit').disabled = !(s.operation === 'Query' || s.operation === 'Scan');
  $('#builder-consistent').checked = s.consistent;
  $('#builder-consistent').disabled = !read;
  $('#builder-run').disabled = !read;
  $('#builder-write-note').hidden = read;

  const t = read && s.operation !== 'GetItem' ? target() : builder.shape.targets[0];
  $('#builder-keys').textContent = '';
  t.partition.concat(t.sort).forEach(k => $('#builder-keys').append(el('option', { value: k })));

  if (s.operation !== 'Scan') {
    const addKey = el('button', { type: 'button', id: 'builder-add-key' }, '+ key condition');
    addKey.addEventListener('click', () => {
      const used = s.key.map(k => k.path);
      const next = t.partition.concat(t.sort).find(k => !used.includes(k)) || '';
      s.key.push({ op: '=', path: next, values: [operand(declaredType(next) || 'S')] });
      renderEditors(); changed();
    });
    const hint = s.operation === 'Query' ? `partition key ${t.partition.join(', ')} = a value; then, optionally, a condition on the sort key ${t.sort.join(', ')}`
      : `the item's whole key: ${t.partition.concat(t.sort).join(', ')}`;
    root.append(section(s.operation === 'Query' ? 'Key condition' : 'Item key', 'key',
      el('p', { class: 'hint' }, hint), s.key.map(keyRow), addKey));
  }
  const tree = (name, field, title) => {
    const add = el('button', { type: 'button', id: `builder-add-${field}` }, `+ ${name}`);
    add.addEventListener('click', () => { s[field] = { op: 'and', clauses: [{ op: '=', path: '', size: false, negate: false, values: [operand()] }], negate: false }; renderEditors(); changed(); });
    return section(title, field, s[field] ? groupBox(s[field], field, () => { s[field] = null; renderEditors(); changed(); }) : add);
  };
  if (s.operation === 'Query' || s.operation === 'Scan') root.append(tree('filter', 'filter', 'Filter (applied after the read, before the page is returned)'));
  if (!read) {
    root.append(tree('condition', 'condition', 'Condition (the write happens only if it holds)'));
    const addAction = el('button', { type: 'button', id: 'builder-add-update' }, '+ action');
    addAction.addEventListener('click', () => { s.update.push({ action: 'SET', path: '', function: '', value: operand() }); renderEditors(); changed(); });
    root.append(section('Update', 'update', s.update.map(updateRow), addAction));
  }
  if (read) {
    root.append(section('Projection', 'projection', textInput(s.projection, { id: 'builder-projection', 'data-field': 'projection[0]',
      placeholder: 'attributes to return, comma-separated (all when empty)' }, p => { s.projection = p; changed(); })));
  }
}

// --- rendering and running ----------------------------------------------------------------------------------------

function changed() {
  builder.next = null;
  clearTimeout(builder.timer);
  builder.timer = setTimeout(renderRequest, 200);
}

function clearErrors() {
  document.querySelectorAll('#view-builder .field-error').forEach(n => n.remove());
  document.querySelectorAll('#view-builder .invalid').forEach(n => n.classList.remove('invalid'));
}

// Each problem goes beside the field it names, or the nearest enclosing one (key[1] for key[1].values).
function showErrors(errors, css = 'field-error') {
  errors.forEach(e => {
    let field = e.field;
    let node = null;
    while (field && !(node = document.querySelector(`#view-builder [data-field="${CSS.escape(field)}"]`))) {
      field = field.includes('.') ? field.substring(0, field.lastIndexOf('.')) : field.includes('[') ? field.substring(0, field.lastIndexOf('[')) : '';
    }
    const message = el('div', { class: css, 'data-for': e.field }, e.message);
    if (!node) { $('#builder-problems').append(message); return; }
    if (css === 'field-error') node.classList.add('invalid');
    (node.closest('.row') || node).after(message);
  });
}

function copyButton(text, id) {
  const b = el('button', { type: 'button', class: 'copy', id }, 'copy');
  b.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = 'copied'; } catch { b.textContent = 'not allowed'; }
  });
  return b;
}

function aliasInput(current, field, onAlias) {
  const input = textInput(current, { class: 'alias', 'data-field': field, size: 8 }, () => {});
  input.addEventListener('change', () => onAlias(input.value.replace(/^[#:]/, '').trim()));
  return input;
}

async function renderRequest() {
  const sequence = ++builder.sequence;
  const r = await post('/console/api/builder/render', wireSpec());
  if (sequence !== builder.sequence) return;
  clearErrors();
  $('#builder-problems').textContent = '';
  const out = $('#builder-output');
  if (!r.ok) {
    out.classList.add('stale');
    if (r.body && r.body.errors) showErrors(r.body.errors); else setStatus($('#builder-problems'), problem(r), true);
    return;
  }
  out.classList.remove('stale');
  out.textContent = '';
  const b = r.body;
  showErrors(b.warnings, 'field-warning');
  const expressions = el('div', { id: 'builder-expressions' });
  const labels = { keyCondition: 'KeyConditionExpression', filter: 'FilterExpression', condition: 'ConditionExpression',
    update: 'UpdateExpression', projection: 'ProjectionExpression' };
  Object.entries(b.expressions).forEach(([name, e]) => expressions.append(el('div', { class: 'expression' },
    el('span', { class: 'label' }, labels[name]), el('code', { id: `builder-expression-${name}` }, e.text),
    el('span', { class: 'readable' }, ' reads as ', el('code', {}, e.readable)))));

  // The placeholders, each renamable: a name keeps its alias everywhere; a value's alias goes to the fields it stands for.
  const names = el('table', { class: 'grid placeholders', id: 'builder-names' }, el('thead', {}, el('tr', {}, el('th', {}, 'name'), el('th', {}, 'attribute'))),
    el('tbody', {}, Object.entries(b.names).map(([placeholder, attribute]) => el('tr', { 'data-placeholder': placeholder },
      el('td', {}, '#', aliasInput(placeholder.substring(1), 'names.' + attribute, alias => {
        if (alias) builder.spec.names[attribute] = alias; else delete builder.spec.names[attribute];
        changed();
      })), el('td', { class: 'key' }, attribute, b.reserved.includes(attribute) ? el('span', { class: 'reserved' }, ' reserved word') : '')))));
  const values = el('table', { class: 'grid placeholders', id: 'builder-values' }, el('thead', {}, el('tr', {}, el('th', {}, 'value'), el('th', {}, 'DynamoDB JSON'))),
    el('tbody', {}, Object.entries(b.values).map(([placeholder, value]) => el('tr', { 'data-placeholder': placeholder },
      el('td', {}, ':', aliasInput(placeholder.substring(1), (b.valueFields[placeholder] || [''])[0] + '.alias', alias => {
        (b.valueFields[placeholder] || []).forEach(f => { const o = operandAt(f); if (o) o.alias = alias || null; });
        changed();
      })), el('td', { class: 'key' }, JSON.stringify(value))))));
  const request = JSON.stringify(b.request, null, 2);
  const snippets = [['cli', 'AWS CLI v2'], ['java', 'Java (AWS SDK v2, async client)'], ['javascript', 'JavaScript (AWS SDK v3)']];
  put(out,
    el('h3', {}, `${b.operation} on ${b.target}`, b.runnable ? '' : ' — a write: shown, never run'),
    expressions,
    el('div', { class: 'placeholder-tables' }, el('div', {}, el('h4', {}, 'ExpressionAttributeNames'), names),
      el('div', {}, el('h4', {}, 'ExpressionAttributeValues'), values)),
    b.reserved.length ? el('p', { class: 'hint', id: 'builder-reserved' }, `DynamoDB reserved words, escaped: ${b.reserved.join(', ')}`) : '',
    el('h4', {}, 'Request (DynamoDB JSON) ', copyButton(request, 'builder-copy-request')), el('pre', { id: 'builder-request' }, request),
    snippets.map(([key, title]) => [el('h4', {}, title + ' ', copyButton(b.snippets[key], `builder-copy-${key}`)),
      el('pre', { class: 'snippet ' + key, id: `builder-snippet-${key}` }, b.snippets[key])]));
}

// The operand a spec field names (key[1].values[0], filter.clauses[0].clauses[0].values[1], update[2].value).
function operandAt(field) {
  const s = builder.spec;
  let m = /^key\[(\d+)]\.values\[(\d+)]$/.exec(field);
  if (m) return s.key[+m[1]].values[+m[2]];
  m = /^update\[(\d+)]\.value$/.exec(field);
  if (m) return s.update[+m[1]].value;
  m = /^(filter|condition)((?:\.clauses\[\d+])*)\.values\[(\d+)]$/.exec(field);
  if (!m) return null;
  let node = s[m[1]];
  let wrapped = node.negate;
  for (const step of m[2].match(/\d+/g) || []) {
    // A negated node sits one level deeper on the wire (NOT's own clauses[0]).
    if (wrapped) { wrapped = false; continue; }
    node = node.clauses[+step];
    wrapped = node.negate;
  }
  return node.values ? node.values[+m[3]] : null;
}

function rowOf(item) {
  const text = v => v && (v.S ?? v.N);
  const attributes = Object.assign({}, item);
  ['pk', 'sk', '_type', '_version'].forEach(k => delete attributes[k]);
  return { pk: text(item.pk) ?? '', sk: text(item.sk) ?? '', type: text(item._type), version: item._version ? Number(item._version.N) : null, attributes };
}

async function runRead(more) {
  const status = $('#builder-status');
  setStatus(status, 'Reading…');
  const path = '/console/api/builder/run' + (more && builder.next ? '?cursor=' + encodeURIComponent(builder.next) : '');
  const r = await post(path, wireSpec());
  if (!r.ok) {
    setStatus(status, problem(r), true);
    if (r.body && r.body.errors) { clearErrors(); showErrors(r.body.errors); }
    return;
  }
  if (!more) builder.items = [];
  builder.items.push(...r.body.items);
  builder.next = r.body.next;
  const result = $('#builder-result');
  result.textContent = '';
  const rows = builder.items.map(rowOf);
  result.append(el('div', { class: 'collection', id: 'builder-items' }, legend(rows), itemTable(rows)));
  setStatus(status, el('span', {}, `${plural(builder.items.length, 'item')} · this page: `,
    el('span', { id: 'builder-count' }, `${plural(r.body.count, 'item')} of ${r.body.scanned} read`), ' · ',
    el('span', { class: 'calls', id: 'builder-calls' }, plural(r.calls, 'call')),
    r.body.consumedCapacity != null ? el('span', { id: 'builder-capacity' }, ` · ${r.body.consumedCapacity} capacity units`) : ''));
  $('#builder-more').hidden = !builder.next;
}

// --- wiring -------------------------------------------------------------------------------------------------------

function startBuilder(spec) {
  builder.spec = spec;
  builder.items = [];
  builder.next = null;
  $('#builder-result').textContent = '';
  setStatus($('#builder-status'), '');
  $('#builder-more').hidden = true;
  renderEditors();
  changed();
}

async function loadShape() {
  if (builder.shape) return true;
  const r = await call('/console/api/builder/shape');
  if (!r.ok) { setStatus($('#builder-problems'), problem(r), true); return false; }
  builder.shape = r.body;
  const index = $('#builder-index');
  index.textContent = '';
  r.body.targets.forEach(t => index.append(el('option', { value: t.name }, t.name === 'table' ? `table ${r.body.table}` : `index ${t.name}`)));
  const attributes = $('#builder-attributes');
  Object.keys(r.body.attributes).concat(Object.keys(r.body.keyTypes)).sort().forEach(a => attributes.append(el('option', { value: a })));
  $('#builder-limit').max = r.body.maxLimit;
  return true;
}

async function showBuilder() {
  if (!await loadShape()) return;
  if (!builder.spec) {
    const spec = freshSpec();
    builder.spec = spec;
    spec.key = defaultKey('Query');
    startBuilder(spec);
  }
}

// An access pattern opens here with its own request (placeholders kept).
async function openInBuilder(spec) {
  document.querySelector('.tab[data-view="builder"]').click();
  if (!await loadShape()) return;
  startBuilder(fromWire(spec));
}

$('#builder-operation').addEventListener('change', e => {
  const s = builder.spec;
  s.operation = e.target.value;
  if (s.operation === 'GetItem' || s.operation === 'UpdateItem') s.index = 'table';
  s.key = defaultKey(s.operation);
  if (s.operation !== 'Query') s.descending = false;
  if (s.operation === 'UpdateItem') s.consistent = false;
  renderEditors(); changed();
});
$('#builder-index').addEventListener('change', e => {
  builder.spec.index = e.target.value;
  builder.spec.key = defaultKey(builder.spec.operation);
  if (builder.spec.index !== 'table') builder.spec.consistent = false;
  renderEditors(); changed();
});
$('#builder-order').addEventListener('change', e => { builder.spec.descending = e.target.value === 'desc'; changed(); });
$('#builder-limit').addEventListener('input', e => { builder.spec.limit = e.target.value; changed(); });
$('#builder-consistent').addEventListener('change', e => { builder.spec.consistent = e.target.checked; changed(); });
$('#builder-run').addEventListener('click', () => runRead(false));
$('#builder-more').addEventListener('click', () => runRead(true));
$('#builder-reset').addEventListener('click', () => { const s = freshSpec(); s.key = defaultKey('Query'); startBuilder(s); });
document.querySelector('.tab[data-view="builder"]').addEventListener('click', showBuilder);
