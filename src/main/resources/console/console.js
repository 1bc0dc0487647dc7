// Cairn console: plain modern JavaScript, no build step. Reads only, through /console/api and the GET routes
// (the expression builder, builder.js, POSTs what it composes to /console/api/builder: it renders and reads, never writes).
'use strict';

const $ = (selector, root = document) => root.querySelector(selector);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([k, v]) => {
    if (k === 'class') node.className = v;
    else if (k.startsWith('data-')) node.setAttribute(k, v);
    else node[k] = v;
  });
  children.flat(Infinity).forEach(c => node.append(c instanceof Node ? c : document.createTextNode(String(c ?? ''))));
  return node;
};

const tokenInput = $('#token');
tokenInput.value = sessionStorage.getItem('cairn-token') || '';
tokenInput.addEventListener('change', () => sessionStorage.setItem('cairn-token', tokenInput.value.trim()));

async function call(path) {
  const headers = { Accept: 'application/json' };
  const token = tokenInput.value.trim();
  if (token) headers.Authorization = 'Bearer ' + token;
  const response = await fetch(path, { headers });
  const text = await response.text();
  let body;
  try { body = text ? JSON.parse(text) : null; } catch { body = text; }
  return {
    ok: response.ok, status: response.status, body,
    calls: response.headers.get('X-DynamoDB-Calls'),
    capacity: response.headers.get('X-DynamoDB-Capacity'),
  };
}

const plural = (n, word) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;
const cost = r => r.calls == null ? '' : `${plural(r.calls, 'call')}` + (r.capacity ? ` · ${r.capacity} capacity units` : '');
const problem = r => (r.body && r.body.detail) ? `${r.status} ${r.body.code}: ${r.body.detail}` : `HTTP ${r.status}`;

function setStatus(node, text, error = false) {
  node.textContent = '';
  node.classList.toggle('error', error);
  if (typeof text === 'string') node.textContent = text; else node.append(text);
}

// One colour per entity type, stable across pages.
function typeBadge(type) {
  let hash = 0;
  for (const ch of String(type)) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return el('span', { class: 'type', style: '', 'data-type': type ?? '' }, type ?? '—');
}
function colour(badge) {
  let hash = 0;
  for (const ch of badge.dataset.type) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  badge.style.background = `hsl(${hash % 360} 55% 42%)`;
  return badge;
}

// Attributes Cairn keeps for itself (index keys, copy context and source versions, leases, undo records): dimmed,
// and shown only with "system attributes" ticked. An embedded copy (_ref) is data: a venue or coach item shows it.
const isSystem = name => name !== '_ref' && (name.startsWith('_') || /^gsi\d+(pk|sk)$/.test(name));

// DynamoDB JSON ({"S": …}, {"N": …}, {"M": {…}}, {"L": […]}) as a plain value, for copying and long views.
function plainOf(value) {
  const [type, v] = Object.entries(value)[0];
  if (type === 'M') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainOf(x)]));
  if (type === 'L') return v.map(plainOf);
  if (type === 'N') return Number(v);
  if (type === 'NULL') return null;
  return v;
}

// One cell: the DynamoDB type, then the value; a long value or a map or list folds behind its first characters.
function typedCell(value) {
  const [type] = Object.keys(value);
  const plain = plainOf(value);
  const text = typeof plain === 'string' ? plain : JSON.stringify(plain);
  const tag = el('span', { class: 'dtype dtype-' + type }, type);
  if (text.length <= 40) return el('span', { class: 'value' }, tag, text);
  return el('details', { class: 'value' }, el('summary', {}, tag, text.slice(0, 36) + '…'),
    el('pre', { class: 'long' }, JSON.stringify(plain, null, 2)));
}

// The item as DynamoDB JSON: what `aws dynamodb get-item` prints.
function itemJson(item) {
  const out = { pk: { S: item.pk }, sk: { S: item.sk } };
  if (item.type != null) out._type = { S: item.type };
  if (item.version != null) out._version = { N: String(item.version) };
  return JSON.stringify(Object.assign(out, item.attributes), null, 2);
}

// A table browser's grid: pk, sk, type and version first, then one column per attribute of the items shown.
function itemTable(items) {
  const names = [...new Set(items.flatMap(item => Object.keys(item.attributes || {})))]
    .sort((a, b) => (isSystem(a) - isSystem(b)) || a.localeCompare(b));
  const head = el('tr', {}, el('th', { 'data-attr': 'pk' }, 'pk'), el('th', { 'data-attr': 'sk' }, 'sk'),
    el('th', {}, 'type'), el('th', {}, 'version'),
    names.map(n => el('th', { class: isSystem(n) ? 'system' : '', 'data-attr': n }, n)), el('th', {}, ''));
  const body = el('tbody');
  items.forEach(item => {
    const copy = el('button', { class: 'copy', type: 'button', title: 'Copy the item as DynamoDB JSON' }, 'copy');
    copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(itemJson(item)); copy.textContent = 'copied'; } catch { copy.textContent = 'not allowed'; }
    });
    body.append(el('tr', { class: 'item', 'data-sk': item.sk ?? '', 'data-pk': item.pk ?? '', 'data-group': item.group ?? '' },
      el('td', { class: 'key' }, item.pk), el('td', { class: 'key' }, item.sk),
      el('td', {}, colour(typeBadge(item.type))), el('td', {}, item.version ?? ''),
      names.map(n => el('td', { class: 'attr' + (isSystem(n) ? ' system' : ''), 'data-attr': n },
        item.attributes && item.attributes[n] ? typedCell(item.attributes[n]) : '')),
      el('td', {}, copy)));
  });
  return el('div', { class: 'grid-wrap' }, el('table', { class: 'grid' }, el('thead', {}, head), body));
}

// The entity types on screen, in their colours.
function legend(items) {
  const types = [...new Set(items.map(item => item.type ?? '—'))].sort();
  return el('div', { class: 'legend' }, 'types: ', types.map(t => colour(typeBadge(t))));
}

const systemToggle = $('#show-system');
const applySystemToggle = () => document.body.classList.toggle('hide-system', !systemToggle.checked);
systemToggle.addEventListener('change', applySystemToggle);
applySystemToggle();

// --- Collections ---------------------------------------------------------------------------------------------
const collection = { items: [], next: null, query: null, aggregate: null, pk: null };

async function loadKinds() {
  const r = await call('/console/api/partitions');
  if (!r.ok) return;
  const select = $('#collection-kind');
  Object.entries(r.body).forEach(([kind, template]) => select.append(el('option', { value: kind }, `${kind} id (${template})`)));
}

function collectionQuery(cursor) {
  const kind = $('#collection-kind').value;
  const key = $('#collection-key').value.trim();
  const params = new URLSearchParams({ limit: $('#collection-limit').value || '100' });
  if (kind) { params.set('kind', kind); params.set('id', key); } else { params.set('pk', key); }
  if (cursor) params.set('cursor', cursor);
  return '/console/api/collections?' + params;
}

async function openCollection(cursor) {
  const status = $('#collection-status');
  setStatus(status, 'Reading…');
  const r = await call(collectionQuery(cursor));
  if (!r.ok) { setStatus(status, problem(r), true); return; }
  if (!cursor) collection.items = [];
  collection.items.push(...r.body.items);
  collection.next = r.body.next;
  collection.aggregate = r.body.aggregate || null;
  collection.pk = r.body.pk;
  renderCollection();
  setStatus(status, el('span', {}, `${plural(collection.items.length, 'item')} in ${r.body.pk} · this page: `,
    el('span', { class: 'calls', id: 'collection-calls' }, cost(r))));
  $('#collection-more').hidden = !collection.next;
}

// Before anything is opened: the table, its indexes and DynamoDB's item counts (ONE DescribeTable), and the
// items by type on request (a bounded Scan), with the examples above one click away.
async function showOverview() {
  const root = $('#collection');
  const r = await call('/console/api/table');
  if (!r.ok || collection.pk) return;
  const t = r.body;
  const count = n => n == null ? '—' : `~${n}`;
  const keys = k => k.sort ? `${k.partition} / ${k.sort}` : k.partition;
  const rows = [el('tr', {}, el('td', {}, t.table), el('td', {}, 'table'), el('td', {}, keys(t.keys)), el('td', {}, 'ALL'),
    el('td', {}, count(t.itemCount)))].concat(t.indexes.map(i => el('tr', { 'data-index': i.name },
    el('td', {}, i.name), el('td', {}, 'GSI'), el('td', {}, keys(i.keys)), el('td', {}, i.projection), el('td', {}, count(i.itemCount)))));
  const counts = el('div', { id: 'type-counts' });
  const button = el('button', { type: 'button', id: 'count-types' }, 'Count items by type');
  button.addEventListener('click', async () => {
    setStatus(counts, 'Scanning…');
    const c = await call('/console/api/type-counts');
    if (!c.ok) { setStatus(counts, problem(c), true); return; }
    const entries = Object.entries(c.body.counts);
    setStatus(counts, el('div', {}, el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, el('th', {}, 'type'), el('th', {}, 'items'))),
      el('tbody', {}, entries.map(([type, n]) => el('tr', { 'data-type': type }, el('td', {}, colour(typeBadge(type))), el('td', {}, n))))),
      el('p', { class: 'hint' }, `${plural(c.body.scanned, 'item')} read${c.body.complete ? ' (the whole table)' : ' (the first ones only)'} · ${cost(c)}`)));
  });
  root.textContent = '';
  root.append(el('div', { class: 'overview', id: 'overview' },
    el('p', { class: 'hint' }, 'Open an item collection above, or start from an example. The table and its indexes ',
      '(item counts are DynamoDB\'s estimates, refreshed about every six hours):'),
    el('table', { class: 'grid' }, el('thead', {}, el('tr', {}, ['name', 'kind', 'keys', 'projection', 'items'].map(h => el('th', {}, h)))),
      el('tbody', {}, rows)),
    el('p', {}, button, ' ', el('span', { class: 'hint' }, 'a Scan that reads only each item\'s type, at most 10,000 items')),
    counts));
}

function renderCollection() {
  const root = $('#collection');
  root.textContent = '';
  const block = el('div', { class: 'collection', 'data-pk': collection.pk },
    el('div', { class: 'pk' }, `pk = ${collection.pk}`, collection.aggregate ? ` · aggregate ${collection.aggregate}` : ''),
    legend(collection.items));
  if (collection.aggregate) {
    const groups = new Map();
    collection.items.forEach(item => {
      const g = item.group ?? '(not a member)';
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(item);
    });
    groups.forEach((items, name) => block.append(el('div', { class: 'group', 'data-group': name },
      el('div', { class: 'group-title' }, name === 'root' ? 'root (the match, its venue)' : `sub-aggregate ${name}`, ` · ${plural(items.length, 'item')}`),
      itemTable(items))));
  } else {
    block.append(itemTable(collection.items));
  }
  root.append(block);
}

// Project ids are generated: the example is acme's newest project (the demo posts are declared with their ids).
async function resolveDemoIds() {
  const projects = await call('/workspaces/acme/projects?limit=1');
  if (projects.ok && projects.body.items.length) EXAMPLES.projectId = projects.body.items[0].id;
}

$('#collection-form').addEventListener('submit', e => { e.preventDefault(); openCollection(null); });
$('#collection-more').addEventListener('click', () => openCollection(collection.next));
document.querySelectorAll('.examples a').forEach(a => a.addEventListener('click', e => {
  e.preventDefault();
  $('#collection-kind').value = a.dataset.kind;
  $('#collection-key').value = a.dataset.id;
  openCollection(null);
}));

// --- Access patterns -----------------------------------------------------------------------------------------
// Example values for route parameters, from the dev-mode demo data; a generated project id is looked up (resolveDemoIds).
const EXAMPLES = { cid: 'math204', sid: 'a91', uid: 'alice', projectId: '',
  squadId: 'aus#2024-25#BGT', number: '1', playerId: 'kohli-01', teamId: 'aus', venueId: 'mcg' };
const ID_BY_ROUTE = { '/matches/': 'bgt-2025-test-1', '/courses/': 'math204', '/players/': 'kohli-01', '/teams/': 'aus',
  '/users/': 'alice', '/workspaces/': 'acme' };
function exampleFor(p, name, position) {
  const keyed = keyValue(p, name);
  if (keyed !== undefined) return keyed;
  if (name !== 'id' && EXAMPLES[name] !== undefined) return EXAMPLES[name];
  const prefix = name === 'id' && Object.keys(ID_BY_ROUTE).find(r => p.route.includes(r));
  return prefix ? ID_BY_ROUTE[prefix] : fromRequest(p, position);
}

// A parameter named after a key attribute of the pattern's own request (an index on an entity's own fields):
// the value the request sets it equal to.
function keyValue(p, name) {
  const r = p.request || {};
  const names = r.ExpressionAttributeNames || {};
  const values = r.ExpressionAttributeValues || {};
  for (const m of (r.KeyConditionExpression || '').matchAll(/(#n\d+) = (:v\d+)/g)) {
    const v = values[m[2]];
    if (names[m[1]] === name && v) return v.S !== undefined ? v.S : v.N;
  }
  return undefined;
}

// Any other parameter (a declared domain's): the id at the end of the key the pattern's own request reads.
function fromRequest(p, position) {
  const r = p.request || {};
  const keys = r.Key ? [r.Key.pk, r.Key.sk] : Object.values(r.ExpressionAttributeValues || {});
  const texts = keys.map(v => v && v.S).filter(Boolean).flatMap(versionParts);
  const text = texts[position] || '';
  return text.includes('#') ? decodeURIComponent(text.substring(text.lastIndexOf('#') + 1)) : '';
}

// A version snapshot's sort key (~VERSION#<item sk>#<version>, or its prefix without the version): the item's own
// sort key, then the version's number — the parameters its routes take after the item's.
function versionParts(text) {
  const m = /^~VERSION#(.*)#(\d+)?$/.exec(text);
  if (!m) return [text];
  return m[2] ? [m[1], '#' + Number(m[2])] : [m[1]];
}

function copyText(text) {
  const b = el('button', { type: 'button', class: 'copy' }, 'copy');
  b.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = 'copied'; } catch { b.textContent = 'not allowed'; }
  });
  return b;
}

async function loadPatterns() {
  const r = await call('/console/api/access-patterns');
  const body = $('#patterns tbody');
  body.textContent = '';
  if (!r.ok) { body.append(el('tr', {}, el('td', { colSpan: 5 }, problem(r)))); return; }
  r.body.forEach(p => {
    const row = el('tr', { 'data-name': p.name },
      el('td', {}, p.name), el('td', { class: 'key' }, p.route), el('td', {}, p.operation),
      el('td', {}, `${p.table} / ${p.index}`), el('td', { class: 'key readable' }, p.readableKeyCondition));
    row.addEventListener('click', () => showPattern(p));
    body.append(row);
  });
}

function showPattern(p) {
  const detail = $('#pattern-detail');
  detail.hidden = false;
  detail.textContent = '';
  const inputs = p.parameters.map((name, i) => el('label', {}, `${name} `,
    el('input', { 'data-param': name, value: exampleFor(p, name, i) })));
  const run = el('button', { class: 'run', id: 'pattern-run', type: 'button', disabled: !p.runnable }, 'Run');
  const meta = el('div', { class: 'result-meta', id: 'pattern-meta' });
  const result = el('pre', { id: 'pattern-result' });
  run.addEventListener('click', async () => {
    let path = p.route.substring(p.route.indexOf(' ') + 1);
    detail.querySelectorAll('input[data-param]').forEach(input => {
      path = path.replace(`{${input.dataset.param}}`, encodeURIComponent(input.value.trim()));
    });
    meta.textContent = 'Running…';
    const r = await call(path);
    meta.textContent = '';
    meta.append(el('span', {}, `GET ${path} → ${r.status}`),
      el('span', { class: 'calls', id: 'pattern-calls' }, r.calls == null ? 'no call count' : plural(r.calls, 'call')),
      el('span', { id: 'pattern-capacity' }, r.capacity ? `${r.capacity} capacity units` : ''));
    result.textContent = JSON.stringify(r.body, null, 2);
  });
  const open = el('button', { type: 'button', id: 'pattern-open-builder' }, 'Open in the expression builder');
  open.addEventListener('click', () => openInBuilder(p.builder));
  detail.append(el('h3', { id: 'pattern-name' }, p.name, ' ', open), el('div', { class: 'key' }, p.route),
    el('p', {}, `${p.operation} on ${p.table} (${p.index}) · key condition `,
      el('code', { id: 'pattern-readable' }, p.readableKeyCondition), ' — as sent: ', el('code', {}, p.keyCondition)),
    el('div', { class: 'query' }, inputs, run, p.runnable ? '' : ' (writes are not run from the console)'),
    meta, result,
    el('h4', {}, 'Placeholders'), el('pre', {}, JSON.stringify({ names: p.names, values: p.values }, null, 2)),
    el('h4', {}, 'SDK request (JSON)'), el('pre', { class: 'request' }, JSON.stringify(p.request, null, 2)),
    el('div', { class: 'snippets' }, [['cli', 'AWS CLI v2'], ['java', 'Java (AWS SDK v2, async client)'],
      ['javascript', 'JavaScript (AWS SDK v3)']].map(([key, title]) => [
      el('h4', {}, title + ' ', copyText(p.snippets[key])), el('pre', { class: 'snippet ' + key }, p.snippets[key])])));
  detail.scrollIntoView({ block: 'nearest' });
}

// --- Indexes -------------------------------------------------------------------------------------------------
const indexState = { items: [], next: null };
async function queryIndex(cursor) {
  const status = $('#index-status');
  const params = new URLSearchParams({ pk: $('#index-key').value.trim(), limit: '100' });
  if (cursor) params.set('cursor', cursor);
  setStatus(status, 'Reading…');
  const r = await call(`/console/api/indexes/${$('#index-name').value}?` + params);
  if (!r.ok) { setStatus(status, problem(r), true); return; }
  if (!cursor) indexState.items = [];
  indexState.items.push(...r.body.items);
  indexState.next = r.body.next;
  const root = $('#index-result');
  root.textContent = '';
  root.append(el('div', { class: 'collection' }, el('div', { class: 'pk' }, `${r.body.index} pk = ${r.body.pk}`),
    legend(indexState.items), itemTable(indexState.items)));
  setStatus(status, el('span', {}, `${plural(indexState.items.length, 'item')} · this page: `, el('span', { class: 'calls', id: 'index-calls' }, cost(r))));
  $('#index-more').hidden = !indexState.next;
}
$('#index-form').addEventListener('submit', e => { e.preventDefault(); queryIndex(null); });
$('#index-more').addEventListener('click', () => queryIndex(indexState.next));

// --- Jobs ----------------------------------------------------------------------------------------------------
const jobsState = { next: null };
function progressBar(job) {
  const total = Math.max(job.matched, 1);
  const part = (n, cls) => el('span', { class: 'part ' + cls, style: '', title: `${n} ${cls}` });
  const bar = el('div', { class: 'progress' + (job.state === 'running' || job.state === 'pending' ? ' open' : ''),
    'data-job': job.id, title: `${job.updated} written, ${job.skipped} current, ${job.failed} failed of ${job.matched}` },
    part(job.updated, 'written'), part(job.skipped, 'current'), part(job.failed, 'failed'));
  [job.updated, job.skipped, job.failed].forEach((n, i) => { bar.children[i].style.width = (100 * n / total) + '%'; });
  return el('div', { class: 'bar-cell' }, bar,
    el('span', { class: 'counts' }, `${job.updated} written · ${job.skipped} current · ${job.failed} failed of ${job.matched}`));
}
// A reconcile's counts on the same bar: repaired copies are written ones, orphaned ones count as failed-looking.
function reconcileBar(job) {
  const bar = progressBar({ id: job.id, state: job.state, matched: job.checked, updated: job.repaired,
    skipped: job.current, failed: job.orphaned + job.failed });
  bar.querySelector('.counts').textContent =
    `${job.repaired} repaired · ${job.current} current · ${job.orphaned} orphaned · ${job.failed} failed of ${job.checked} checked`;
  return bar;
}
function reconcileScope(job) {
  return job.scope === 'all' ? 'reconcile: every copy'
    : job.scope === 'entity' ? `reconcile: every ${job.entity}` : `reconcile: ${job.entity} ${job.sourceId}`;
}
async function listJobs(cursor) {
  const status = $('#jobs-status');
  const params = new URLSearchParams({ state: $('#jobs-state').value, limit: '50' });
  if (cursor) params.set('cursor', cursor);
  setStatus(status, 'Reading…');
  const reconcile = $('#jobs-kind').value === 'reconcile';
  const r = await call((reconcile ? '/maintenance/reconcile?' : '/cascades?') + params);
  if (!r.ok) { setStatus(status, problem(r), true); return; }
  const body = $('#jobs tbody');
  if (!cursor) body.textContent = '';
  r.body.items.forEach(job => body.append(el('tr', { class: 'job', 'data-id': job.id },
    el('td', { class: 'key' }, job.id),
    el('td', {}, reconcile ? reconcileScope(job) : `${job.source.entity} ${job.source.id} v${job.source.version}`),
    el('td', { class: 'state ' + job.state }, job.state), el('td', {}, reconcile ? reconcileBar(job) : progressBar(job)),
    el('td', {}, job.pages), el('td', {}, job.owner ?? '—'), el('td', {}, job.updatedAt ?? ''))));
  jobsState.next = r.body.next;
  setStatus(status, el('span', {}, `${plural(body.children.length, 'job')} · this page: `, el('span', { class: 'calls', id: 'jobs-calls' }, cost(r))));
  $('#jobs-more').hidden = !jobsState.next;
}
$('#jobs-form').addEventListener('submit', e => { e.preventDefault(); listJobs(null); });
$('#jobs-more').addEventListener('click', () => listJobs(jobsState.next));

// --- Tabs ----------------------------------------------------------------------------------------------------
document.querySelectorAll('.tab').forEach(tab => tab.addEventListener('click', () => {
  document.querySelectorAll('.tab').forEach(t => t.classList.toggle('active', t === tab));
  document.querySelectorAll('.view').forEach(v => { v.hidden = v.id !== 'view-' + tab.dataset.view; });
  if (tab.dataset.view === 'patterns' && !$('#patterns tbody').children.length) loadPatterns();
}));

loadKinds();
showOverview();
resolveDemoIds();
