import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../http/api-error';
import { createApiClient } from '../http/api-fetch';
import { serverAnswerOf } from './server-answer-of';
import {
  FIRST_SCREEN_DATA_ID,
  type FirstScreenData,
  firstScreenDataText,
  readFirstScreenData,
} from './server-answers';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The message the browser's own client shows for this answer (what hydration must draw the same). */
async function browserMessage(response: Response): Promise<string> {
  const { apiFetch } = createApiClient({ getToken: () => undefined, fetchImpl: () => async () => response });
  const error: unknown = await apiFetch('/api/products/slug/x').catch((caught: unknown) => caught);
  if (!(error instanceof ApiError)) throw new Error('the client did not fail');
  return error.message;
}

/** A page whose data block holds `text`, as the page server writes it. */
function pageWith(text: string): Document {
  const doc = document.implementation.createHTMLDocument('page');
  const block = doc.createElement('script');
  block.type = 'application/json';
  block.id = FIRST_SCREEN_DATA_ID;
  block.textContent = text;
  doc.body.append(block);
  return doc;
}

const data: FirstScreenData = {
  answers: {
    '/api/products/slug/ar-15': { status: 200, ok: true, data: { name: 'AR-15' }, headers: {} },
    '/api/products/slug/gone': { status: 404, ok: false, message: 'Product Not Found' },
  },
  origin: 'https://shop.example.com',
  remotes: { catalog: '1.2.3' },
};

describe('firstScreenDataText', () => {
  const hostile: FirstScreenData = {
    ...data,
    answers: {
      '/api/x': {
        status: 200,
        ok: true,
        data: {
          name: '</script><script>alert(1)</script>',
          // Opens the script's "double escaped" state, in which even the block's own </script> ends nothing.
          comment: '<!--<script/',
          note: 'a & b > c',
          lines: 'one\u2028two\u2029three',
        },
      },
    },
  };

  it('writes no character that could end the block or the line of a script early', () => {
    const text = firstScreenDataText(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
    expect(text).toContain('\\u0026');
    expect(text).toContain('\\u2028');
  });

  it('is JSON that reads back to the same data', () => {
    expect(JSON.parse(firstScreenDataText(hostile))).toEqual(hostile);
  });

  it('survives an HTML parser: the block holds the whole text, and the page reads the data back', () => {
    const doc = new DOMParser().parseFromString(
      `<!doctype html><html><body><script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${firstScreenDataText(hostile)}</script><p id="after">after</p></body></html>`,
      'text/html',
    );
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.getElementById('after')?.textContent).toBe('after');
    expect(readFirstScreenData(doc)).toEqual(hostile);
  });
});

describe('readFirstScreenData', () => {
  afterEach(() => document.body.replaceChildren());

  it("reads the page's data block", () => {
    expect(readFirstScreenData(pageWith(firstScreenDataText(data)))).toEqual(data);
  });

  it('reads the current document by default', () => {
    document.body.innerHTML = `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${firstScreenDataText(data)}</script>`;
    expect(readFirstScreenData()).toEqual(data);
  });

  it('is undefined for a page rendered in the browser (no block) or a damaged block', () => {
    expect(readFirstScreenData(pageWith(''))).toBeUndefined();
    expect(readFirstScreenData(document.implementation.createHTMLDocument('plain'))).toBeUndefined();
    for (const damaged of ['{"answers":', 'null', '42', '"text"', '{"origin":"https://x.example"}'])
      expect(readFirstScreenData(pageWith(damaged)), damaged).toBeUndefined();
  });

  it("fills what is missing: the page's own origin and no remotes", () => {
    expect(readFirstScreenData(pageWith('{"answers":{}}'))).toEqual({
      answers: {},
      origin: location.origin,
      remotes: {},
    });
    expect(readFirstScreenData(pageWith('{"answers":{},"origin":7}'))?.origin).toBe(location.origin);
  });
});

describe('serverAnswerOf', () => {
  it('keeps a success: its status, body and the total count, and no other header', async () => {
    const answer = await serverAnswerOf(
      json([{ name: 'AR-15' }], 200, { 'X-Total-Count': '42', 'Set-Cookie': 'a=b', ETag: '"1"' }),
    );
    expect(answer).toEqual({
      status: 200,
      ok: true,
      data: [{ name: 'AR-15' }],
      headers: { 'x-total-count': '42' },
    });
  });

  it('keeps a success without the total count with no headers', async () => {
    expect(await serverAnswerOf(json({ a: 1 }, 201))).toEqual({
      status: 201,
      ok: true,
      data: { a: 1 },
      headers: {},
    });
  });

  it("keeps a refusal (4xx) with the message the browser's client shows for it", async () => {
    const cases = [
      () => json({ message: 'Product Not Found' }, 404),
      () => json({ message: ['name is short', 'price is negative'] }, 400),
      () => json({ message: '' }, 404),
      () => new Response('<html>Not here</html>', { status: 404 }),
      () => new Response('', { status: 403 }),
    ];
    for (const response of cases) {
      const answer = await serverAnswerOf(response());
      const expected = await browserMessage(response());
      expect(answer).toEqual({ status: response().status, ok: false, message: expected });
    }
    expect(await serverAnswerOf(json({ message: 'Product Not Found' }, 404))).toEqual({
      status: 404,
      ok: false,
      message: 'Product Not Found',
    });
    expect(await serverAnswerOf(new Response('', { status: 403 }))).toMatchObject({
      message: 'Request failed with status 403',
    });
  });

  it('has no answer for what a retry may change (5xx, 429, 408) or for a success that is not JSON', async () => {
    for (const status of [500, 502, 503, 504, 429, 408])
      expect(await serverAnswerOf(json({ message: 'busy' }, status)), String(status)).toBeUndefined();
    expect(
      await serverAnswerOf(new Response('<!doctype html><p>index</p>', { status: 200 })),
    ).toBeUndefined();
    expect(await serverAnswerOf(new Response('', { status: 200 }))).toBeUndefined();
  });
});
