import type { Product } from '@shop/contracts';
import { expect, test } from './fixtures';
import { noisyPicture, truncated } from './test-images';

// Every call of every service, through the real gateway of the running shop, with what a careless
// or hostile client sends: malformed input must get a 4xx with a JSON message and no trace of the
// server's insides, and change nothing; a missing or forged token a 401 and a customer on an admin
// call a 403, from every service on its own. Each service's suite checks each rule; this sweep
// checks that no corner of any of them was missed.

type Who = 'nobody' | 'customer' | 'admin';

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  who: Who;
}

/** A well-formed id that names nothing, and ids that are not ids at all. */
const NOBODY_ID = '0123456789abcdef01234567';
const BAD_IDS = ['not-an-id', '%7B%22%24ne%22%3Anull%7D', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(300)];

const BODY_CALLS: Call[] = [
  { method: 'POST', path: '/api/users/signup', who: 'nobody' },
  { method: 'POST', path: '/api/users/signin', who: 'nobody' },
  { method: 'PUT', path: '/api/users/profile', who: 'customer' },
  { method: 'POST', path: '/api/users/forgot-password', who: 'nobody' },
  { method: 'POST', path: '/api/users/reset-password', who: 'nobody' },
  { method: 'POST', path: '/api/listings/create', who: 'admin' },
  { method: 'POST', path: `/api/products/update/${NOBODY_ID}`, who: 'admin' },
  { method: 'POST', path: '/api/orders', who: 'customer' },
  { method: 'PUT', path: `/api/orders/${NOBODY_ID}/pay`, who: 'customer' },
  { method: 'PUT', path: '/api/wallet/update-wallet', who: 'admin' },
  { method: 'PUT', path: '/api/data/update-data', who: 'admin' },
  { method: 'POST', path: '/api/media', who: 'customer' },
];

const ID_CALLS: ((id: string) => Call)[] = [
  (id) => ({ method: 'GET', path: `/api/products/${id}`, who: 'nobody' }),
  (id) => ({ method: 'DELETE', path: `/api/products/delete/${id}`, who: 'admin' }),
  (id) => ({ method: 'GET', path: `/api/orders/${id}`, who: 'customer' }),
  (id) => ({ method: 'PUT', path: `/api/orders/markpaid/${id}`, who: 'admin' }),
  (id) => ({ method: 'PUT', path: `/api/orders/delivered/${id}`, who: 'admin' }),
  (id) => ({ method: 'DELETE', path: `/api/orders/delete/${id}`, who: 'admin' }),
  (id) => ({ method: 'DELETE', path: `/api/users/delete/${id}`, who: 'admin' }),
  (id) => ({ method: 'PUT', path: `/api/users/markadmin/${id}`, who: 'admin' }),
  (id) => ({ method: 'GET', path: `/api/media/${id}/picture.png`, who: 'nobody' }),
];

/** Raw bodies sent as `application/json`, from broken syntax to operator objects in every field. */
const OPERATOR = { $ne: null };
const BAD_BODIES: string[] = [
  '{"name": "unterminated',
  'null',
  '[]',
  '"a string"',
  '12',
  JSON.stringify({
    name: OPERATOR,
    email: OPERATOR,
    password: { $gt: '' },
    orderItems: OPERATOR,
    shippingAddress: 'nowhere',
    price: 'free',
    coin: ['bitcoin'],
    siteName: { $where: 'sleep(1000)' },
    isAdmin: true,
  }),
  JSON.stringify({ name: 'x'.repeat(200_000) }),
  JSON.stringify({ name: nested(500), orderItems: [nested(500)], coin: nested(500) }),
];

/** Query strings each list must refuse (operator-shaped keys such as `minPrice[$gt]` are dropped). */
const BAD_QUERIES: [path: string, query: string][] = [
  ['/api/products', 'sort=__proto__'],
  ['/api/products', 'page=-1'],
  ['/api/products', 'pageSize=1e9'],
  ['/api/products', 'minPrice=abc'],
  ['/api/products', 'category=a&category=b'],
  ['/api/products', `query=${'('.repeat(5_000)}`],
  ['/api/products/facets', 'minPrice=abc'],
  ['/api/products/facets', 'brand=a&brand=b'],
  ['/api/products/facets', `query=${'('.repeat(5_000)}`],
  ['/api/orders/mine', 'page=0'],
  ['/api/orders/mine', 'limit=1e9'],
  ['/api/users/all-users', 'isAdmin=maybe'],
  ['/api/users/all-users', 'limit=0'],
  ['/api/users/all-users', `q=${'('.repeat(5_000)}`],
  ['/api/orders', 'status=__proto__'],
  ['/api/orders', 'status=Paid&status=Pending'],
  ['/api/orders', 'paid=maybe'],
  ['/api/orders', 'page=0'],
  ['/api/orders', `q=${'('.repeat(5_000)}`],
];

function nested(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

function send(
  baseURL: string,
  call: Call,
  token: string | undefined,
  init: { body?: string; contentType?: string; query?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const url = `${baseURL}${call.path}${init.query ? `?${init.query}` : ''}`;
  return fetch(url, { method: call.method, headers, body: init.body });
}

/** Signs up (path `signup`) or in (`signin`) and answers the token. */
async function tokenFrom(baseURL: string, path: 'signup' | 'signin', body: object): Promise<string> {
  const response = await send(
    baseURL,
    { method: 'POST', path: `/api/users/${path}`, who: 'nobody' },
    undefined,
    {
      body: JSON.stringify(body),
    },
  );
  expect(response.status, `${path}: ${response.status}`).toBe(path === 'signup' ? 201 : 200);
  return ((await response.json()) as { token: string }).token;
}

let accounts: Promise<Record<Who, string | undefined>> | undefined;

/** One customer and the admin, signed in once for the file: sign-ups are limited per minute. */
function signedIn(baseURL: string): Promise<Record<Who, string | undefined>> {
  accounts ??= (async () => ({
    nobody: undefined,
    customer: await tokenFrom(baseURL, 'signup', {
      name: 'Sweep Customer',
      email: `sweep-${Date.now()}@example.com`,
      password: 'a long sweep passphrase',
    }),
    admin: await tokenFrom(baseURL, 'signin', { email: 'admin@shop.local', password: 'admin-password-123' }),
  }))();
  return accounts;
}

/** What a 4xx answer must look like: JSON with a message, and nothing of the server's insides. */
async function expectClearRefusal(response: Response, what: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${what} → ${response.status} ${text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${what} → ${response.status} ${text.slice(0, 200)}`).toBeLessThan(500);
  expect(response.headers.get('content-type'), what).toContain('application/json');
  const body = JSON.parse(text) as { message?: unknown };
  expect(typeof body.message, `${what}: ${text.slice(0, 200)}`).toBe('string');
  expect((body.message as string).length, what).toBeGreaterThan(0);
  expect(text, what).not.toMatch(/\n\s+at |node_modules|\.ts:\d|\.js:\d|MongoServerError|E11000|CastError/);
}

test('every call answers malformed input with a clear 4xx and changes nothing', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const tokens = await signedIn(baseURL!);
  const as = (call: Call, init: Parameters<typeof send>[3] = {}) =>
    send(baseURL!, call, tokens[call.who], init);
  const read = async (path: string) => (await fetch(`${baseURL}${path}`)).text();
  const catalogueBefore = await read('/api/products');
  const settingsBefore = await read('/api/data/all-data');
  const walletsBefore = await read('/api/wallet/all-wallets');
  // Other files of the run may have made admins of their own; what matters is that this sweep made none.
  const adminEmails = async () => {
    const answer = await as({ method: 'GET', path: '/api/users/all-users', who: 'admin' });
    expect(answer.status).toBe(200);
    const users = (await answer.json()) as { email: string; isAdmin: boolean }[];
    return users
      .filter((user) => user.isAdmin)
      .map((user) => user.email)
      .sort();
  };
  const adminsBefore = await adminEmails();
  expect(adminsBefore).toContain('admin@shop.local');

  for (const call of BODY_CALLS) {
    for (const body of BAD_BODIES) {
      await expectClearRefusal(await as(call, { body }), `${call.method} ${call.path} ${body.slice(0, 60)}`);
    }
    await expectClearRefusal(
      await as(call, { body: 'name=x&email=y', contentType: 'text/plain' }),
      `${call.method} ${call.path} as text/plain`,
    );
  }
  for (const makeCall of ID_CALLS) {
    for (const id of BAD_IDS) {
      const call = makeCall(id);
      await expectClearRefusal(await as(call), `${call.method} ${call.path.slice(0, 80)}`);
    }
  }
  for (const [path, query] of BAD_QUERIES) {
    await expectClearRefusal(
      await as({ method: 'GET', path, who: 'admin' }, { query }),
      `GET ${path}?${query.slice(0, 60)}`,
    );
  }

  // Nothing changed: the catalogue, the settings and the wallets read as before, and both accounts
  // still work (signing in again would meet the gateway's per-minute limit of sign-ins).
  expect(await read('/api/products')).toBe(catalogueBefore);
  expect(await read('/api/data/all-data')).toBe(settingsBefore);
  expect(await read('/api/wallet/all-wallets')).toBe(walletsBefore);
  expect((JSON.parse(catalogueBefore) as Product[]).length).toBeGreaterThan(5);
  expect(await adminEmails()).toEqual(adminsBefore);
  expect((await as({ method: 'GET', path: '/api/orders/mine', who: 'customer' })).status).toBe(200);
});

/** Calls only an admin may make, at least one per service that has them. */
const ADMIN_CALLS: Call[] = [
  { method: 'POST', path: '/api/listings/create', who: 'admin' },
  { method: 'DELETE', path: `/api/products/delete/${NOBODY_ID}`, who: 'admin' },
  { method: 'GET', path: '/api/orders', who: 'admin' },
  { method: 'PUT', path: `/api/orders/markpaid/${NOBODY_ID}`, who: 'admin' },
  { method: 'DELETE', path: `/api/orders/delete/${NOBODY_ID}`, who: 'admin' },
  { method: 'GET', path: '/api/users/all-users', who: 'admin' },
  { method: 'PUT', path: `/api/users/markadmin/${NOBODY_ID}`, who: 'admin' },
  { method: 'PUT', path: '/api/wallet/update-wallet', who: 'admin' },
  { method: 'PUT', path: '/api/data/update-data', who: 'admin' },
];

/** Calls any signed-in user may make, and nobody else. */
const CUSTOMER_CALLS: Call[] = [
  { method: 'POST', path: '/api/orders', who: 'customer' },
  { method: 'GET', path: '/api/orders/mine', who: 'customer' },
  { method: 'GET', path: `/api/orders/${NOBODY_ID}`, who: 'customer' },
  { method: 'PUT', path: '/api/users/profile', who: 'customer' },
  { method: 'POST', path: '/api/media', who: 'customer' },
];

/** The customer's token made to claim more: a forged admin flag, `alg: none`, a broken signature. */
function forgeries(token: string): Record<string, string> {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const asAdmin = Buffer.from(JSON.stringify({ ...claims, isAdmin: true })).toString('base64url');
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
  return {
    'a forged admin flag': `${header}.${asAdmin}.${signature}`,
    'alg none': `${none}.${asAdmin}.`,
    'a broken signature': `${header}.${payload}.${flipped}`,
    'no token at all': '',
  };
}

test('every service refuses strangers (401), customers on admin calls (403) and forged tokens (401)', async ({
  baseURL,
}) => {
  const tokens = await signedIn(baseURL!);
  const bodyFor = (call: Call) => (call.method === 'GET' ? {} : { body: '{}' });
  for (const call of [...ADMIN_CALLS, ...CUSTOMER_CALLS]) {
    for (const [forgery, token] of Object.entries(forgeries(tokens.customer!))) {
      const response = await send(baseURL!, call, token || undefined, bodyFor(call));
      const what = `${call.method} ${call.path} with ${forgery}`;
      expect(response.status, what).toBe(401);
      await expectClearRefusal(response, what);
    }
  }
  for (const call of ADMIN_CALLS) {
    const response = await send(baseURL!, call, tokens.customer, bodyFor(call));
    const what = `${call.method} ${call.path} as a customer`;
    expect(response.status, what).toBe(403);
    await expectClearRefusal(response, what);
  }
});

function uploadImage(baseURL: string, token: string | undefined, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return fetch(`${baseURL}/api/media`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
}

test('refuses a damaged image of each accepted format with 400 and the reason', async ({ baseURL }) => {
  const tokens = await signedIn(baseURL!);
  for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
    const damaged = truncated(await noisyPicture(format));
    const response = await uploadImage(baseURL!, tokens.customer, damaged, `damaged.${format}`);
    const what = `a truncated ${format}`;
    expect(response.status, what).toBe(400);
    expect(await response.clone().json(), what).toEqual({ message: 'The image is damaged or incomplete' });
    await expectClearRefusal(response, what);
  }
});

test('every one of many clients sending a body over the limit at once reads the answer', async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  const tenMegabytes = new Uint8Array(10 * 2 ** 20).fill(0x61);
  const signin = (streamed: boolean) =>
    fetch(`${baseURL}/api/users/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A stream goes out chunked, without Content-Length: the gateway counts it as it arrives.
      body: streamed ? new Blob([tenMegabytes]).stream() : tenMegabytes,
      duplex: 'half',
    } as RequestInit);
  // The service's own early answers (here a missing token, before it reads a 3.5 MB upload) as well.
  const anonymousUpload = () => uploadImage(baseURL!, undefined, new Uint8Array(3.5 * 2 ** 20), 'large.png');

  const answers = await Promise.all([
    ...Array.from({ length: 20 }, () => signin(false).then((r) => ['10 MB sign-in', r] as const)),
    ...Array.from({ length: 10 }, () => signin(true).then((r) => ['10 MB chunked sign-in', r] as const)),
    ...Array.from({ length: 10 }, () => anonymousUpload().then((r) => ['anonymous upload', r] as const)),
  ]);
  for (const [what, response] of answers) {
    expect(response.status, what).toBe(what === 'anonymous upload' ? 401 : 413);
    await expectClearRefusal(response, what);
  }
});
