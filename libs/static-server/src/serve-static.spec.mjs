import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, describeBuild, serveStatic } from './serve-static.mjs';

describe('cacheControlFor', () => {
  it('never stores the remotes manifest', () => {
    expect(cacheControlFor('/remotes.json')).toBe('no-store');
    expect(cacheControlFor('/site.json')).toBe('no-store');
  });

  it('revalidates the files that name other files, and SPA pages', () => {
    for (const path of ['/index.html', '/mf-manifest.json', '/remoteEntry.js', '/', '/order/42']) {
      expect(cacheControlFor(path)).toBe('no-cache');
    }
  });

  it('keeps content-hashed files for a year', () => {
    expect(cacheControlFor('/main.3f9a0c1d.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/592.f943f189.js.map')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/favicon.ico')).toBe('no-cache');
  });
});

describe('serveStatic', () => {
  let dir;
  let shell;
  let remote;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'serve-static-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>shop</title>');
    await writeFile(join(dir, 'remotes.json'), '{"catalog":"/remotes/catalog/mf-manifest.json"}');
    await writeFile(join(dir, 'main.0123abcd.js'), 'console.log(1)');
    shell = await serveStatic({ dir, port: 0, host: '127.0.0.1', spa: true });
    remote = await serveStatic({ dir, port: 0, host: '127.0.0.1', cors: true });
  });

  afterAll(async () => {
    await shell?.close();
    await remote?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves files with their cache policy', async () => {
    const manifest = await fetch(`${shell.url}/remotes.json`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-store');
    expect(await manifest.json()).toEqual({ catalog: '/remotes/catalog/mf-manifest.json' });

    const hashed = await fetch(`${shell.url}/main.0123abcd.js`);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(hashed.headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers index.html for client-side routes when serving a single-page app', async () => {
    const page = await fetch(`${shell.url}/order/42`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<title>shop</title>');
  });

  it('answers 404 as JSON for a missing file, even in single-page mode', async () => {
    const missing = await fetch(`${shell.url}/missing.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found' });

    const notSpa = await fetch(`${remote.url}/order/42`);
    expect(notSpa.status).toBe(404);

    const apiCall = await fetch(`${shell.url}/api/products`, { headers: { Accept: 'application/json' } });
    expect(apiCall.status).toBe(404);
    expect(await apiCall.json()).toEqual({ message: 'Not found' });
  });

  it('answers each page with the policy that names its own inline script, re-read after a rebuild', async () => {
    const policyOf = async () =>
      (await fetch(`${shell.url}/order/42`)).headers.get('content-security-policy');
    const before = await policyOf();
    expect(before).toMatch(/^default-src 'none'; script-src 'self';/);
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>shop</title><script>start()</script>');
    const after = await policyOf();
    expect(after).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(after).not.toBe(before);
    expect((await fetch(`${shell.url}/`)).headers.get('content-security-policy')).toBe(after);
    expect((await fetch(`${shell.url}/remotes.json`)).headers.get('content-security-policy')).toBeNull();

    // A revalidated page keeps its policy: the browser replaces the stored headers with the 304's.
    const etag = (await fetch(`${shell.url}/order/42`)).headers.get('etag');
    const revalidated = await fetch(`${shell.url}/order/42`, { headers: { 'If-None-Match': etag ?? '' } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('content-security-policy')).toBe(after);
  });

  it('reports liveness and refuses writes', async () => {
    const live = await fetch(`${shell.url}/health/live`);
    expect(live.status).toBe(200);
    const post = await fetch(`${shell.url}/index.html`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ message: 'Method not allowed' });
  });

  it('lets other origins read a remote when asked to', async () => {
    const response = await fetch(`${remote.url}/remotes.json`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const fromShell = await fetch(`${shell.url}/remotes.json`);
    expect(fromShell.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('does not serve files outside its folder', async () => {
    const response = await fetch(`${remote.url}/..%2f..%2f..%2f..%2fetc%2fhostname`);
    expect(response.status).toBe(404);
    const page = await fetch(`${shell.url}/..%2f..%2f..%2f..%2fetc%2fhostname`);
    expect(await page.text()).not.toMatch(/localhost|root:/);
  });
});

/** A built front-end as webpack leaves it: its mf-manifest.json says its version and where it is served. */
async function fakeBuild(root, version, { publicPath = 'auto', files = {} } = {}) {
  const dir = join(root, `build-${version}-${publicPath === '/' ? 'flat' : 'versioned'}`);
  await mkdir(dir, { recursive: true });
  const manifest = { metaData: { buildInfo: { buildVersion: version }, publicPath } };
  await writeFile(join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

describe('serveStatic with versioned builds', () => {
  let root;
  let servers = [];
  const serve = async (options) => {
    const server = await serveStatic({ port: 0, host: '127.0.0.1', ...options });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'serve-versions-'));
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await rm(root, { recursive: true, force: true });
  });

  it('reads the version of a build, and whether it is served under it', async () => {
    expect(describeBuild(await fakeBuild(root, '1.2.0-rc.1'))).toEqual({
      version: '1.2.0-rc.1',
      versioned: true,
    });
    expect(describeBuild(await fakeBuild(root, '0.1.0', { publicPath: '/' }))).toEqual({
      version: '0.1.0',
      versioned: false,
    });
    expect(() => describeBuild(root)).toThrow(/no mf-manifest\.json/);
  });

  it('serves each build under its version, and another published beside it without a restart', async () => {
    const first = await fakeBuild(root, '0.1.0', {
      files: { 'remoteEntry.js': 'one', 'main.0123abcd.js': 'a' },
    });
    const second = await fakeBuild(root, '0.2.0', { files: { 'remoteEntry.js': 'two' } });
    const remote = await serve({ builds: { '0.1.0': first } });

    expect(await (await fetch(`${remote.url}/0.1.0/remoteEntry.js`)).text()).toBe('one');
    expect((await fetch(`${remote.url}/0.2.0/remoteEntry.js`)).status).toBe(404);
    // Nothing answers outside a version: a remote has no unversioned files.
    expect((await fetch(`${remote.url}/remoteEntry.js`)).status).toBe(404);

    remote.publish('0.2.0', second);
    expect(await (await fetch(`${remote.url}/0.2.0/remoteEntry.js`)).text()).toBe('two');
    expect(await (await fetch(`${remote.url}/0.1.0/remoteEntry.js`)).text()).toBe('one');
    const hashed = await fetch(`${remote.url}/0.1.0/main.0123abcd.js`);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(() => remote.publish('latest', second)).toThrow(/Not a version/);
  });

  it("answers the shell's pages with its release, and the environment's files before the build's", async () => {
    const build = await fakeBuild(root, '0.3.0', {
      publicPath: '/0.3.0/',
      files: {
        'index.html': '<title>release 0.3.0</title>',
        'favicon.svg': '<svg/>',
        'remotes.json': '{"from":"build"}',
        'site.json': '{"from":"build"}',
      },
    });
    const environment = join(root, 'environment');
    await mkdir(environment);
    await writeFile(join(environment, 'remotes.json'), '{"from":"environment"}');
    const shell = await serve({ dir: environment, builds: { '0.3.0': build }, release: '0.3.0', spa: true });

    for (const path of ['/', '/order/42']) {
      const page = await fetch(`${shell.url}${path}`);
      expect(await page.text()).toContain('release 0.3.0');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    expect(await (await fetch(`${shell.url}/remotes.json`)).json()).toEqual({ from: 'environment' });
    expect(await (await fetch(`${shell.url}/site.json`)).json()).toEqual({ from: 'build' });
    expect(await (await fetch(`${shell.url}/favicon.svg`)).text()).toBe('<svg/>');
    expect((await fetch(`${shell.url}/0.3.0/missing.js`)).status).toBe(404);
    await expect(serve({ builds: { '0.3.0': build }, release: '0.4.0' })).rejects.toThrow(
      /not among the builds/,
    );
  });

  it('serves a shell of the flat layout at the root, behind the environment files', async () => {
    const flat = await fakeBuild(root, '0.0.9', {
      publicPath: '/',
      files: { 'index.html': '<title>flat</title>', 'remotes.json': '{"from":"build"}' },
    });
    const environment = join(root, 'environment-flat');
    await mkdir(environment);
    await writeFile(join(environment, 'remotes.json'), '{"from":"environment"}');
    const shell = await serve({ dir: [environment, flat], spa: true });

    expect(await (await fetch(`${shell.url}/cart`)).text()).toContain('flat');
    expect(await (await fetch(`${shell.url}/remotes.json`)).json()).toEqual({ from: 'environment' });
  });
});
