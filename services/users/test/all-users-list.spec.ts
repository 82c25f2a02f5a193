import type { UserInfo, UserSummary } from '@shop/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type UsersHarness, startUsers } from './support/users.harness';

let users: UsersHarness;
let admin: UserInfo;

/** A word no other test's accounts contain, so each test reads only its own accounts. */
const freshTag = () => `t${randomBytes(4).toString('hex')}`;

const signUp = (name: string, email: string): Promise<UserInfo> => users.signUp({ name, email });

async function promote(user: UserInfo): Promise<void> {
  const response = await users.call('PUT', `/api/users/markadmin/${user._id}`, { token: admin.token });
  expect(response.status).toBe(200);
}

function list(query = '') {
  return users.call<UserSummary[]>('GET', `/api/users/all-users${query}`, { token: admin.token });
}

beforeAll(async () => {
  users = await startUsers();
  admin = (await users.call<UserInfo>('POST', '/api/users/signin', { body: ADMIN })).body;
});

afterAll(async () => {
  await users?.close();
});

describe('GET /api/users/all-users with filters and paging', () => {
  it('answers every live account, oldest first, with the count in X-Total-Count when given no parameters', async () => {
    const tag = freshTag();
    const first = await signUp(`First ${tag}`, `first.${tag}@example.com`);
    const second = await signUp(`Second ${tag}`, `second.${tag}@example.com`);

    const response = await list();

    expect(response.status).toBe(200);
    const ids = response.body.map((user) => user._id);
    expect(ids.indexOf(first._id)).toBeLessThan(ids.indexOf(second._id));
    expect(ids).toContain(admin._id);
    expect(response.headers.get('x-total-count')).toBe(String(response.body.length));
  });

  it('finds the text in the name or the e-mail, whatever its case', async () => {
    const tag = freshTag();
    const byName = await signUp(`Zed ${tag.toUpperCase()} Walker`, `zed.${freshTag()}@example.com`);
    const byEmail = await signUp('Yolanda', `yolanda.${tag}@example.com`);
    await signUp('Xavier', `xavier.${freshTag()}@example.com`);

    const response = await list(`?q=${tag}`);

    expect(response.status).toBe(200);
    expect(response.body.map((user) => user._id).sort()).toEqual([byName._id, byEmail._id].sort());
    expect(response.headers.get('x-total-count')).toBe('2');
  });

  it('reads the text literally, never as a pattern', async () => {
    const tag = freshTag();
    const dotted = await signUp(`Ann (${tag}.x)`, `ann.${tag}@example.com`);
    await signUp(`Bea ${tag}ax`, `bea.${freshTag()}@example.com`);

    const literal = await list(`?q=${encodeURIComponent(`(${tag}.x)`)}`);
    expect(literal.status).toBe(200);
    expect(literal.body.map((user) => user._id)).toEqual([dotted._id]);

    const pattern = await list(`?q=${encodeURIComponent('.*')}`);
    expect(pattern).toMatchObject({ status: 200, body: [] });
    expect(pattern.headers.get('x-total-count')).toBe('0');
  });

  it('keeps only admins or only shoppers with isAdmin, combined with the text', async () => {
    const tag = freshTag();
    const boss = await signUp(`Boss ${tag}`, `boss.${tag}@example.com`);
    const shopper = await signUp(`Shopper ${tag}`, `shopper.${tag}@example.com`);
    await promote(boss);

    const admins = await list(`?q=${tag}&isAdmin=true`);
    expect(admins.body).toEqual([
      { _id: boss._id, name: `Boss ${tag}`, email: `boss.${tag}@example.com`, isAdmin: true },
    ]);
    const shoppers = await list(`?q=${tag}&isAdmin=false`);
    expect(shoppers.body.map((user) => user._id)).toEqual([shopper._id]);

    const everyAdmin = await list('?isAdmin=true');
    expect(everyAdmin.body.every((user) => user.isAdmin)).toBe(true);
    expect(everyAdmin.body.map((user) => user._id)).toEqual(expect.arrayContaining([admin._id, boss._id]));
  });

  it('answers one page at a time in a stable order, with the total of every match', async () => {
    const tag = freshTag();
    const created: UserInfo[] = [];
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five'])
      created.push(await signUp(`${name} ${tag}`, `${name.toLowerCase()}.${tag}@example.com`));
    const ids = created.map((user) => user._id);

    const pages = await Promise.all([1, 2, 3].map((page) => list(`?q=${tag}&page=${page}&limit=2`)));

    expect(pages.map((page) => page.body.map((user) => user._id))).toEqual([
      ids.slice(0, 2),
      ids.slice(2, 4),
      ids.slice(4),
    ]);
    for (const page of pages) expect(page.headers.get('x-total-count')).toBe('5');
    const past = await list(`?q=${tag}&page=9&limit=2`);
    expect(past).toMatchObject({ status: 200, body: [] });
    expect(past.headers.get('x-total-count')).toBe('5');
  });

  it('pages by 20 when only page is given, and takes the first page when only limit is', async () => {
    const tag = freshTag();
    for (const name of ['Ada', 'Bo', 'Cy'])
      await signUp(`${name} ${tag}`, `${name.toLowerCase()}.${tag}@example.com`);

    expect((await list(`?q=${tag}&limit=2`)).body.map((user) => user.name)).toEqual([
      `Ada ${tag}`,
      `Bo ${tag}`,
    ]);
    expect((await list(`?q=${tag}&page=1`)).body).toHaveLength(3);
    expect((await list(`?q=${tag}&page=2`)).body).toEqual([]);
  });

  it('treats empty parameters and a blank q as not given', async () => {
    const all = await list();
    const empty = await list('?q=%20%20&isAdmin=&page=&limit=');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(all.body);
  });

  it.each([
    ['?page=0', 'page must be at least 1'],
    ['?page=-1', 'page must be at least 1'],
    ['?page=two', 'page must be a whole number'],
    ['?page=1.5', 'page must be a whole number'],
    ['?page=1&page=2', 'page must be a whole number'],
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=101', 'limit must be at most 100'],
    ['?isAdmin=yes', 'isAdmin must be true or false'],
    ['?q=a&q=b', 'q must be a single text'],
    [`?q=${'x'.repeat(101)}`, 'q must be at most 100 characters'],
  ])('refuses %s with a 400 and a JSON message', async (query, message) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.stringContaining(message) as unknown });
  });
});
