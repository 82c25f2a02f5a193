import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, serveStatic } from './serve-static.mjs';

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
