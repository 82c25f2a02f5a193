// The trace viewer `npm start` serves on Jaeger's port: tools/dev-stack/src/observability.ts points Jaeger's
// ui.assets_path at tools/dev-stack/trace-viewer, and Jaeger serves /static/ from it and index.html for any other
// page. Find traces by service, operation and duration, and read one as a tree of spans on a time line.
// It only reads Jaeger's query API (/api/services, /api/traces); every text it shows comes from spans,
// so it is written with textContent, never as HTML.
/* global document, location, window -- a page in the browser, not a Node module */

const $ = (selector) => document.querySelector(selector);
const status = (text) => {
  $('#status').textContent = text;
};

/** An element with its attributes and children (strings become text nodes). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'onClick') element.addEventListener('click', value);
    else if (name === 'style') Object.assign(element.style, value);
    else element.setAttribute(name, value);
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

async function api(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = body.errors?.[0]?.msg ?? `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return body.data ?? [];
}

const ms = (micros) =>
  micros >= 10_000 ? `${Math.round(micros / 1000)} ms` : `${(micros / 1000).toFixed(2)} ms`;
const tag = (span, key) => span.tags.find((each) => each.key === key)?.value;
/** What a span did: its name, and for a server span named after its process (Kong's "kong"), the call. */
function label(span) {
  const method = tag(span, 'http.request.method') ?? tag(span, 'http.method');
  const path = tag(span, 'http.route') ?? tag(span, 'url.path') ?? tag(span, 'http.target');
  const call = method && path ? `${method} ${path}` : undefined;
  return call && !span.operationName.includes(path) ? `${span.operationName} ${call}` : span.operationName;
}
const failed = (span) => tag(span, 'error') === true || tag(span, 'otel.status_code') === 'ERROR';

/** The spans of a trace as a tree in start order: each with its service, depth and children. */
function spanTree(trace) {
  const byId = new Map(trace.spans.map((span) => [span.spanID, { ...span, children: [] }]));
  const roots = [];
  for (const span of byId.values()) {
    span.service = trace.processes[span.processID]?.serviceName ?? '?';
    const parent = span.references.find((ref) => ref.refType === 'CHILD_OF' && byId.has(ref.spanID));
    (parent ? byId.get(parent.spanID).children : roots).push(span);
  }
  const ordered = [];
  const visit = (span, depth) => {
    span.depth = depth;
    ordered.push(span);
    span.children.sort((a, b) => a.startTime - b.startTime).forEach((child) => visit(child, depth + 1));
  };
  roots.sort((a, b) => a.startTime - b.startTime).forEach((root) => visit(root, 0));
  return ordered;
}

const COLOURS = ['#2f6fb0', '#c0622b', '#3c8d40', '#8e44ad', '#b03a55', '#1f8a8a', '#8a6d1f', '#555'];
function colourOf(service, services) {
  return COLOURS[services.indexOf(service) % COLOURS.length];
}

/** The details of one span: its tags, its process and its events. */
function spanDetails(span, trace) {
  const rows = [...span.tags, ...(trace.processes[span.processID]?.tags ?? [])].map((each) =>
    h('tr', {}, h('th', { scope: 'row' }, each.key), h('td', {}, String(each.value))),
  );
  const events = (span.logs ?? []).map((log) =>
    h(
      'li',
      {},
      `+${ms(log.timestamp - span.startTime)} `,
      log.fields.map((field) => `${field.key}=${field.value}`).join(' '),
    ),
  );
  return h(
    'div',
    { class: 'details' },
    h('table', {}, h('tbody', {}, ...rows)),
    events.length ? h('ul', { 'aria-label': 'Events' }, ...events) : undefined,
  );
}

async function showTrace(traceId) {
  $('#results').replaceChildren();
  status(`Loading trace ${traceId}...`);
  const [trace] = await api(`/api/traces/${encodeURIComponent(traceId)}`);
  if (!trace) throw new Error(`No trace ${traceId} (traces are kept in memory, the oldest dropped first)`);
  const spans = spanTree(trace);
  const start = Math.min(...spans.map((span) => span.startTime));
  const end = Math.max(...spans.map((span) => span.startTime + span.duration));
  const services = [...new Set(spans.map((span) => span.service))];
  const rows = spans.map((span) => {
    const row = h(
      'li',
      { class: failed(span) ? 'span failed' : 'span', 'data-service': span.service },
      h(
        'button',
        { type: 'button', 'aria-expanded': 'false', style: { paddingLeft: `${span.depth * 1.2 + 0.4}rem` } },
        h('span', { class: 'service', style: { color: colourOf(span.service, services) } }, span.service),
        ' ',
        h('span', { class: 'operation' }, label(span)),
        tag(span, 'span.kind') ? h('span', { class: 'kind' }, ` ${tag(span, 'span.kind')}`) : undefined,
      ),
      h(
        'span',
        { class: 'timeline', 'aria-hidden': 'true' },
        h('span', {
          class: 'bar',
          style: {
            left: `${((span.startTime - start) / (end - start || 1)) * 100}%`,
            width: `${Math.max(0.3, (span.duration / (end - start || 1)) * 100)}%`,
            background: colourOf(span.service, services),
          },
        }),
      ),
      h('span', { class: 'duration' }, ms(span.duration)),
    );
    row.querySelector('button').addEventListener('click', (event) => {
      const open = row.querySelector('.details');
      event.currentTarget.setAttribute('aria-expanded', String(!open));
      if (open) open.remove();
      else row.append(spanDetails(span, trace));
    });
    return row;
  });
  $('#trace').replaceChildren(
    h('h2', {}, `${spans[0].service}: ${label(spans[0])}`),
    h(
      'p',
      {},
      `Trace ${trace.traceID}, ${ms(end - start)}, ${spans.length} spans in ${services.join(', ')}; ` +
        `started ${new Date(start / 1000).toLocaleString()}.`,
    ),
    h('ol', { class: 'spans', 'aria-label': 'Spans' }, ...rows),
  );
  status('');
}

async function showSearch(params) {
  $('#trace').replaceChildren();
  const form = $('#search');
  for (const [name, value] of params) if (form.elements[name]) form.elements[name].value = value;
  if (!params.get('service')) return;
  await loadOperations(params.get('service'), params.get('operation') ?? '');
  status('Searching...');
  const query = new URLSearchParams({
    service: params.get('service'),
    limit: params.get('limit') || '20',
    lookback: params.get('lookback') || '1h',
  });
  if (params.get('operation')) query.set('operation', params.get('operation'));
  if (Number(params.get('minDurationMs')) > 0)
    query.set('minDuration', `${Number(params.get('minDurationMs'))}ms`);
  const traces = await api(`/api/traces?${query}`);
  const items = traces
    .map((trace) => ({ trace, spans: spanTree(trace) }))
    .sort((a, b) => b.spans[0].startTime - a.spans[0].startTime)
    .map(({ trace, spans }) => {
      const root = spans[0];
      const end = Math.max(...spans.map((span) => span.startTime + span.duration));
      const services = [...new Set(spans.map((span) => span.service))].join(', ');
      return h(
        'li',
        { class: spans.some(failed) ? 'failed' : undefined },
        h('a', { href: `#/trace/${trace.traceID}` }, `${root.service}: ${label(root)}`),
        ` ${ms(end - root.startTime)}, ${spans.length} spans (${services}), ${new Date(root.startTime / 1000).toLocaleTimeString()}`,
      );
    });
  $('#results').replaceChildren(h('ol', {}, ...items));
  status(items.length ? `${items.length} traces, newest first` : 'No trace matches.');
}

async function loadOperations(service, selected) {
  const operations = await api(`/api/services/${encodeURIComponent(service)}/operations`);
  const select = $('#search').elements.operation;
  select.replaceChildren(
    h('option', { value: '' }, 'all'),
    ...operations.sort().map((name) => h('option', { value: name }, name)),
  );
  select.value = selected;
}

async function route() {
  try {
    const [, view, rest] = /^#\/(trace|search)[/?]?(.*)$/.exec(location.hash) ?? [];
    if (view === 'trace') await showTrace(rest);
    else await showSearch(new URLSearchParams(view === 'search' ? rest : ''));
  } catch (error) {
    status(error.message);
  }
}

async function start() {
  const services = await api('/api/services');
  const select = $('#search').elements.service;
  select.replaceChildren(...services.sort().map((name) => h('option', { value: name }, name)));
  select.addEventListener('change', () =>
    loadOperations(select.value, '').catch((error) => status(error.message)),
  );
  if (services.length) await loadOperations(select.value, '');
  else status('No service has sent a span yet.');
  $('#search').addEventListener('submit', (event) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (value) params.set(name, String(value));
    location.hash = `#/search?${params}`;
  });
  $('#lookup').addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = `#/trace/${event.currentTarget.elements.traceId.value.trim().toLowerCase()}`;
  });
  window.addEventListener('hashchange', route);
  await route();
}

start().catch((error) => status(error.message));
