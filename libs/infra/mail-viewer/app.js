// The inbox page of the mail catcher `npm start` and the browser tests run: libs/infra/install/mailpit.mjs
// builds Mailpit from its Go module with this file and app.css as its web UI (the module carries none: its
// releases make theirs with npm), and Mailpit serves them to the page it answers at / and /view/<id>.
// Lists every message caught, newest first (refreshed every few seconds), finds those to one address,
// and shows one: its headers, its text, its HTML in a sandboxed frame. It only reads Mailpit's API
// (/api/v1); every text it shows comes from e-mail, so it is written with textContent, never as HTML.
/* global document, location, window -- a page in the browser, not a Node module */

const REFRESH_MS = 3_000;

/** An element with its attributes and children (strings become text nodes). */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, value);
  }
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

const $ = (selector) => document.querySelector(selector);
const status = (text) => {
  $('#status').textContent = text;
};

async function api(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path} answered ${response.status} ${response.statusText}`);
  return response.json();
}

const addresses = (list) => (list ?? []).map((each) => each.Address).join(', ');
const when = (created) => new Date(created).toLocaleString();

/** Where the page is: `#/message/<id>`, or the list, of every message or of those `?to=` one address. */
function place() {
  const [, id] = /^#\/message\/([\w-]+)$/.exec(location.hash) ?? [];
  const to = new URLSearchParams(/^#\/\?(.*)$/.exec(location.hash)?.[1] ?? '').get('to') ?? '';
  return { id, to: to.trim() };
}

let shown = '';

async function showList(to) {
  $('#message').replaceChildren();
  $('#filter').elements.to.value = to;
  const path = to
    ? `/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}&limit=200`
    : '/api/v1/messages?limit=200';
  const { messages, total } = await api(path);
  const seen = `${to}\n${total}\n${messages.map((message) => message.ID).join()}`;
  if (seen === shown) return;
  shown = seen;
  const items = messages.map((message) =>
    h(
      'li',
      {},
      h('a', { href: `#/message/${message.ID}` }, message.Subject || '(no subject)'),
      h('span', { class: 'to' }, ` to ${addresses(message.To)}`),
      h('span', { class: 'meta' }, ` from ${message.From?.Address ?? '?'}, ${when(message.Created)}`),
    ),
  );
  $('#messages').replaceChildren(h('ol', {}, ...items));
  const of = to ? ` to ${to}` : '';
  status(
    items.length === 0
      ? `No e-mail${of} yet.`
      : `${total} message${total === 1 ? '' : 's'}${of}, newest first` +
          (total > items.length ? ` (the newest ${items.length} shown)` : ''),
  );
}

async function showMessage(id) {
  shown = '';
  $('#messages').replaceChildren();
  status('Loading the message...');
  const message = await api(`/api/v1/message/${encodeURIComponent(id)}`);
  const row = (name, value) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value));
  $('#message').replaceChildren(
    h('h2', {}, message.Subject || '(no subject)'),
    h(
      'table',
      {},
      h(
        'tbody',
        {},
        row('From', addresses([message.From])),
        row('To', addresses(message.To)),
        message.Cc?.length ? row('Cc', addresses(message.Cc)) : undefined,
        row('Date', when(message.Date)),
      ),
    ),
    h('h3', {}, 'Text'),
    h('pre', { class: 'text' }, message.Text || '(no text part)'),
    message.HTML
      ? h(
          'section',
          { 'aria-label': 'HTML' },
          h('h3', {}, 'HTML'),
          // Mailpit's own rendering of the HTML part; sandboxed: no scripts, no forms, no navigation.
          h('iframe', { src: `/view/${encodeURIComponent(id)}.html`, sandbox: '', title: 'The HTML part' }),
        )
      : undefined,
    h(
      'p',
      {},
      h('a', { href: `/api/v1/message/${encodeURIComponent(id)}/raw` }, 'The message as sent (raw)'),
    ),
  );
  status('');
}

async function route() {
  try {
    const { id, to } = place();
    if (id) await showMessage(id);
    else await showList(to);
  } catch (error) {
    status(error.message);
  }
}

function start() {
  document.title = 'Shop mail';
  $('#app').replaceChildren(
    h(
      'header',
      {},
      h('h1', {}, h('a', { href: '#/' }, 'Shop mail')),
      h(
        'p',
        {},
        'Every e-mail the shop sent on this machine, caught by Mailpit: none of it reached anyone. ' +
          'Its API is under /api/v1.',
      ),
    ),
    h(
      'main',
      {},
      h(
        'form',
        { id: 'filter', 'aria-label': 'Find e-mail' },
        h('label', {}, 'To ', h('input', { name: 'to', type: 'email', placeholder: 'any address' })),
        h('button', { type: 'submit' }, 'Find'),
      ),
      h('p', { id: 'status', role: 'status' }),
      h('section', { id: 'messages', 'aria-label': 'Messages' }),
      h('section', { id: 'message', 'aria-label': 'Message' }),
    ),
  );
  $('#filter').addEventListener('submit', (event) => {
    event.preventDefault();
    const to = event.currentTarget.elements.to.value.trim();
    location.hash = to ? `#/?${new URLSearchParams({ to })}` : '#/';
  });
  // Mailpit answers /view/<id> with this page too (its own UI's address for a message).
  const [, viewed] = /^\/view\/([\w-]+)$/.exec(location.pathname) ?? [];
  if (viewed && !location.hash) location.replace(`/#/message/${viewed}`);
  window.addEventListener('hashchange', () => {
    shown = '';
    void route();
  });
  window.setInterval(() => {
    if (!place().id) void route();
  }, REFRESH_MS);
  void route();
}

start();
