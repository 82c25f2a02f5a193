import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, type IncomingHttpHeaders, createServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL } from './support/checks';
import { REPO_ROOT } from './support/render';

/**
 * The shell's nginx (docker/nginx, laid out and rendered as docker/frontend.Dockerfile does) in front of a
 * stand-in page server (docs/rendering.md): pages go to the page server, and whatever it cannot answer (a 5xx,
 * no answer in 5 s, a refused connection, a name that does not resolve) is the release's own page; files
 * never go to it. Runs the nginx installed on the machine (Debian's): `nginx -t`, then the server itself.
 */

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const RELEASE = '0.2.0';
const PLAIN_PAGE =
  '<!doctype html><html><head><script>window.start=1</script></head><body>plain page</body></html>';
const RENDERED = '<!doctype html><html data-rendered><body>rendered page</body></html>';
const RENDERED_POLICY = "default-src 'none'; script-src 'self' 'sha256-rendered'";
const PAGE_TAG = 'W/"rendered-1"';

const scratch = mkdtempSync(join(tmpdir(), 'shop-shell-nginx-'));
// nginx's workers run as nobody when the tests run as root: they read the site through this folder.
chmodSync(scratch, 0o755);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The image's files under `root`, with the image's absolute paths moved there (as the Dockerfile renders them). */
function layOut(root: string, port: number, pagesUrl: string): string {
  const moved = (text: string) =>
    text
      .replace(/\/etc\/nginx\/|\/usr\/share\/nginx\/html|\/tmp\//g, (path) =>
        path === '/usr/share/nginx/html' ? `${root}/html` : `${root}${path}`,
      )
      // The test's output streams may be sockets, which nginx cannot open by path.
      .replaceAll('/dev/stderr', `${root}/error.log`)
      .replaceAll('/dev/stdout', `${root}/access.log`)
      .replace(/listen 8080 default_server;/, `listen 127.0.0.1:${port} default_server;`);
  for (const dir of [
    'etc/nginx/snippets',
    'etc/nginx/conf.d',
    'etc/nginx/shell-release',
    'tmp',
    `html/${RELEASE}`,
  ])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, `html/${RELEASE}/index.html`), PLAIN_PAGE);
  writeFileSync(join(root, `html/${RELEASE}/main.abc.js`), 'console.log(1);');
  writeFileSync(join(root, `html/${RELEASE}/favicon.svg`), '<svg/>');
  writeFileSync(join(root, 'html/remotes.json'), '{"schemaVersion":2,"remotes":{}}');
  const nginxDir = join(root, 'etc/nginx');
  writeFileSync(join(nginxDir, 'nginx.conf'), moved(REAL.read('docker/nginx/nginx.conf')));
  if (existsSync('/etc/nginx/mime.types'))
    copyFileSync('/etc/nginx/mime.types', join(nginxDir, 'mime.types'));
  else writeFileSync(join(nginxDir, 'mime.types'), 'types { text/html html; application/javascript js; }');
  for (const snippet of [
    'frontend-common.conf',
    'security-headers.conf',
    'page-policy.conf',
    'page-server.conf',
  ])
    writeFileSync(join(nginxDir, 'snippets', snippet), moved(REAL.read(`docker/nginx/${snippet}`)));
  writeFileSync(join(nginxDir, 'shell-release/shell-release.conf'), `set $shell_release "${RELEASE}";\n`);
  writeFileSync(join(nginxDir, 'conf.d/frontend.conf'), moved(REAL.read('docker/nginx/shell.conf.template')));
  // What the image's entry point writes at start (shell-pages.conf.template, with the environment's values).
  writeFileSync(
    join(root, 'tmp/shell-pages.conf'),
    REAL.read('docker/nginx/shell-pages.conf.template')
      .replaceAll('${NGINX_LOCAL_RESOLVERS}', '127.0.0.1')
      .replaceAll('${PAGES_URL}', pagesUrl),
  );
  // The page policy map, generated over the site by the image's own generator.
  const generator = join(root, 'page-policy');
  mkdirSync(generator);
  copyFileSync(join(REPO_ROOT, 'libs/static-server/src/page-policy.mjs'), join(generator, 'page-policy.mjs'));
  copyFileSync(join(REPO_ROOT, 'docker/nginx/page-policy-map.mjs'), join(generator, 'page-policy-map.mjs'));
  const map = spawnSync(process.execPath, [join(generator, 'page-policy-map.mjs'), join(root, 'html')], {
    encoding: 'utf8',
  });
  expect(map.status, map.stderr).toBe(0);
  writeFileSync(join(nginxDir, 'conf.d/page-policy-map.conf'), map.stdout);
  // nginx's workers run as nobody when the tests run as root: they read the site.
  spawnSync('chmod', ['-R', 'a+rX', root]);
  chmodSync(root, 0o755);
  return join(nginxDir, 'nginx.conf');
}

const nginxTest = (config: string) =>
  spawnSync(NGINX!, ['-t', '-q', '-p', join(config, '../../..'), '-c', config], { encoding: 'utf8' });

/** nginx serving the shell's configuration, handing pages to `pagesUrl`. */
async function startNginx(name: string, pagesUrl: string): Promise<{ url: string; stop: () => void }> {
  const root = join(scratch, name);
  const port = await freePort();
  const config = layOut(root, port, pagesUrl);
  const check = nginxTest(config);
  expect(check.status, `nginx -t: ${check.stderr}`).toBe(0);
  const child: ChildProcess = spawn(NGINX!, ['-p', root, '-c', config, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await fetch(`${url}/health/live`);
      break;
    } catch {
      if (attempt > 50 || child.exitCode !== null) throw new Error(`nginx did not start: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, stop: () => child.kill('SIGTERM') };
}

type Mode = 'rendered' | 'not-found' | 'failing' | 'slow';

/** The stand-in page server: answers as `mode` says, and records what it was asked. */
function startPageServer() {
  const state = { mode: 'rendered' as Mode, asked: [] as { url: string; headers: IncomingHttpHeaders }[] };
  const server: Server = createServer((req, res) => {
    state.asked.push({ url: req.url ?? '', headers: req.headers });
    const page = (status: number) => {
      const validation = { 'Cache-Control': 'no-cache', ETag: PAGE_TAG };
      if (status === 200 && req.headers['if-none-match'] === PAGE_TAG) {
        res.writeHead(304, validation);
        res.end();
        return;
      }
      res.writeHead(status, {
        'Content-Type': 'text/html; charset=utf-8',
        ...validation,
        'Content-Security-Policy': RENDERED_POLICY,
        'Reporting-Endpoints': 'csp="/api/csp-reports"',
        'X-Content-Type-Options': 'nosniff',
        ...(status === 404 ? { 'X-Robots-Tag': 'noindex' } : {}),
      });
      res.end(RENDERED);
    };
    if (state.mode === 'rendered') page(200);
    else if (state.mode === 'not-found') page(404);
    else if (state.mode === 'failing') {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.end('{"message":"The page could not be rendered"}');
    } else setTimeout(() => page(200), 6_500).unref();
  });
  return { state, server };
}

describe("the shell's nginx in front of its page server", () => {
  const pages = startPageServer();
  let nginx: { url: string; stop: () => void };
  let downNginx: { url: string; stop: () => void };
  let unresolvedNginx: { url: string; stop: () => void };

  beforeAll(async () => {
    // The installer puts it there for every test run (libs/infra/install/test-tools.mjs): never pass without it.
    if (!NGINX)
      throw new Error(
        'no nginx binary in /usr/sbin, /usr/local/sbin or /usr/bin (Debian: apt-get install nginx-light)',
      );
    await new Promise<void>((resolve) => pages.server.listen(0, '127.0.0.1', resolve));
    const { port } = pages.server.address() as AddressInfo;
    nginx = await startNginx('up', `http://127.0.0.1:${port}`);
    downNginx = await startNginx('down', `http://127.0.0.1:${await freePort()}`);
    unresolvedNginx = await startNginx('unresolved', 'http://shell-pages.invalid:4100');
  });
  afterAll(() => {
    for (const started of [nginx, downNginx, unresolvedNginx]) started?.stop();
    pages.server.close();
  });

  const get = (base: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { Accept: 'text/html', ...headers } });
  const expectPlainPage = async (response: Response) => {
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PLAIN_PAGE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    // The release's page policy (page-policy-map.mjs), with the hash of its own inline script.
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-[^']+'/);
    expect(response.headers.get('content-security-policy')).not.toBe(RENDERED_POLICY);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  };

  it('nginx -t accepts the configuration, and refuses a broken one (the check can fail)', () => {
    const root = join(scratch, 'broken');
    const config = layOut(root, 1, 'http://127.0.0.1:1');
    expect(nginxTest(config).status).toBe(0);
    const snippet = join(root, 'etc/nginx/snippets/page-server.conf');
    writeFileSync(
      snippet,
      REAL.read('docker/nginx/page-server.conf').replace(
        'proxy_intercept_errors on;',
        'proxy_intercept_errors maybe;',
      ),
    );
    const broken = nginxTest(config);
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toMatch(/proxy_intercept_errors/);
  });

  it.each(['/', '/product/42?tab=reviews', '/cart'])(
    'hands the page %s to the page server and answers with its page and its headers',
    async (path) => {
      pages.state.mode = 'rendered';
      pages.state.asked = [];
      const response = await get(nginx.url, path, {
        'X-Forwarded-Host': 'shop.example.com',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Port': '443',
        Cookie: 'session=secret',
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(RENDERED);
      expect(response.headers.get('content-security-policy')).toBe(RENDERED_POLICY);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('reporting-endpoints')).toBe('csp="/api/csp-reports"');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(pages.state.asked).toHaveLength(1);
      const [asked] = pages.state.asked;
      expect(asked?.url).toBe(path);
      expect(asked?.headers).toMatchObject({
        'x-forwarded-host': 'shop.example.com',
        'x-forwarded-proto': 'https',
        'x-forwarded-port': '443',
        accept: 'text/html',
      });
      expect(asked?.headers.cookie, 'the page server never sees the cookies').toBeUndefined();
    },
  );

  it("passes the browser's If-None-Match to the page server, and its 304 and ETag back", async () => {
    pages.state.mode = 'rendered';
    pages.state.asked = [];
    const first = await get(nginx.url, '/product/42');
    expect(first.headers.get('etag')).toBe(PAGE_TAG);
    await first.text();
    const again = await get(nginx.url, '/product/42', { 'If-None-Match': PAGE_TAG });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(PAGE_TAG);
    expect(await again.text()).toBe('');
    expect(pages.state.asked.map((asked) => asked.headers['if-none-match'])).toEqual([undefined, PAGE_TAG]);
  });

  it('gives the page server the origin it was reached on when no proxy forwarded one', async () => {
    pages.state.mode = 'rendered';
    pages.state.asked = [];
    await (await get(nginx.url, '/')).text();
    const port = new URL(nginx.url).port;
    expect(pages.state.asked[0]?.headers).toMatchObject({
      host: '127.0.0.1',
      'x-forwarded-host': `127.0.0.1:${port}`,
      'x-forwarded-proto': 'http',
    });
    expect(pages.state.asked[0]?.headers['x-forwarded-port']).toBeUndefined();
  });

  it("passes the page server's 404 for an unknown path (not nginx's JSON)", async () => {
    pages.state.mode = 'not-found';
    const response = await get(nginx.url, '/no/such/page');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(RENDERED);
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
  });

  it("answers the release's own page when the page server fails (5xx)", async () => {
    pages.state.mode = 'failing';
    await expectPlainPage(await get(nginx.url, '/product/42'));
    await expectPlainPage(await get(nginx.url, '/'));
  });

  it("answers the release's own page when the page server is down", async () => {
    await expectPlainPage(await get(downNginx.url, '/'));
    await expectPlainPage(await get(downNginx.url, '/category/rifles'));
  });

  it("answers the release's own page when the page server's name does not resolve", async () => {
    await expectPlainPage(await get(unresolvedNginx.url, '/'));
  });

  it(
    "answers the release's own page when the page server takes more than 5 s",
    { timeout: 15_000 },
    async () => {
      pages.state.mode = 'slow';
      const started = Date.now();
      await expectPlainPage(await get(nginx.url, '/search?q=scope'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
      expect(Date.now() - started).toBeLessThan(6_500);
    },
  );

  it('serves files, remotes.json and the probes itself, never through the page server', async () => {
    pages.state.mode = 'rendered';
    pages.state.asked = [];
    const asset = await get(nginx.url, `/${RELEASE}/main.abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get(nginx.url, '/remotes.json')).headers.get('cache-control')).toBe('no-store');
    expect((await get(nginx.url, '/favicon.svg')).status).toBe(200);
    expect((await get(nginx.url, '/missing.png')).status).toBe(404);
    expect((await get(nginx.url, '/health/ready')).status).toBe(200);
    const index = await get(nginx.url, '/index.html');
    expect(await index.text()).toBe(PLAIN_PAGE);
    expect((await fetch(`${nginx.url}/`, { method: 'POST' })).status).toBe(405);
    expect(pages.state.asked).toEqual([]);
  });
});
