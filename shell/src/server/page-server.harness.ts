// What the page server's specs share (page-server.spec.tsx, stream-page.spec.tsx): a template like the
// shell build's, a stand-in render service, and a page server started for a test and closed after it. Each
// spec mocks '../federation/remote-route' with its server variant first, as the page server's build does.
import { FIRST_SCREEN_DATA_ID, type FirstScreenData } from '@shop/state/first-screen';
import { createHash } from 'node:crypto';
import { listen } from '@shop/ui/server';
import { afterEach, expect } from 'vitest';
import { startPageServer } from './page-server';

type PageServerOptions = Parameters<typeof startPageServer>[0];

// Like the shell build's index.html: minified, one inline start script, the page's defaults.
export const TEMPLATE =
  '<!doctype html><html lang=en><head><title>Firearms Store</title><meta name=description content="x">' +
  '<script>start()</script></head><body><noscript>This shop needs JavaScript.</noscript><div id=root></div></body></html>';
export const START_HASH = `'sha256-${createHash('sha256').update('start()').digest('base64')}'`;

export const PRODUCT_ANSWER = {
  status: 200,
  ok: true,
  data: { name: 'AR-15 </script><script>alert(1)</script>' },
  headers: {},
} as const;

export const fragmentOf = (overrides: Record<string, unknown> = {}) => ({
  version: '1.0.0',
  status: 200,
  head: '<title>Product Page AR-15</title><meta name="description" content="A rifle."/>',
  html: '<article data-fragment="yes"><h1>AR-15 from the render service</h1></article>',
  answers: { '/api/products/slug/ar-15': PRODUCT_ANSWER },
  ...overrides,
});

/** A stand-in render service: answers `answer(req)` as JSON (or with `status`), and records what it was asked. */
export async function renderService(answer: (url: URL) => { status?: number; body: unknown }) {
  const asked: URL[] = [];
  const server = await listen(
    async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://render');
      asked.push(url);
      const { status = 200, body } = answer(url);
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    },
    { port: 0, host: '127.0.0.1', failure: 'stand-in failed' },
  );
  return { ...server, asked };
}

export const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A page server whose catalog render service is `service`, with remotes.json naming catalog 1.0.0. */
export async function pageServer(
  service: string | undefined,
  options: Partial<
    Pick<PageServerOptions, 'publicOrigin' | 'template' | 'composedPagesBytes' | 'streamAfterMs'>
  > = {},
) {
  const logged: Record<string, unknown>[] = [];
  const server = await startPageServer({
    template: async () => TEMPLATE,
    remotesManifest: async () => ({ schemaVersion: 2, remotes: { catalog: { version: '1.0.0' } } }),
    renderService: (remote) => (remote === 'catalog' ? service : undefined),
    port: 0,
    host: '127.0.0.1',
    fragmentTimeoutMs: 1_000,
    log: (entry) => logged.push(entry),
    ...options,
  });
  closing.push(server.close);
  return { server, logged };
}

/** The page's data block, parsed. */
export function pageData(html: string): FirstScreenData {
  const blocks = [
    ...html.matchAll(
      new RegExp(`<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">([\\s\\S]*?)</script>`, 'g'),
    ),
  ];
  expect(blocks).toHaveLength(1);
  return JSON.parse(blocks[0]![1]!) as FirstScreenData;
}

/** What #root holds: from its opening tag to the data block that follows it. */
export const rootOf = (html: string) =>
  /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1];
