#!/usr/bin/env node
// Static server for the built front-ends (shell and remotes), locally and in their containers.
// Caching follows ARCHITECTURE.md: the remotes manifest is never stored, the files that name other files
// (index.html, mf-manifest.json, remoteEntry.js) are revalidated on every use, content-hashed files are
// immutable.
import { createServer } from 'node:http';
import { existsSync, statSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';

const NO_STORE = 'no-store';
const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

// webpack's [contenthash:8] (or longer) just before the extension: main.3f9a0c1d.js, 592.f943f189.js.map
const CONTENT_HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+(\.map)?$/i;

/**
 * Cache-Control for a request path.
 * @param {string} pathname
 * @returns {string}
 */
export function cacheControlFor(pathname) {
  const name = basename(pathname);
  // Configuration per environment (which remotes, the shop's contact details): never kept.
  if (name === 'remotes.json' || name === 'site.json') return NO_STORE;
  if (name === 'index.html' || name === 'mf-manifest.json' || name === 'remoteEntry.js') return REVALIDATE;
  // A path without an extension is a page of the single-page app: index.html answers it.
  if (extname(name) === '') return REVALIDATE;
  if (CONTENT_HASHED.test(name)) return IMMUTABLE;
  return REVALIDATE;
}

/**
 * A browser navigating to a page: a path without a file extension, asked for as HTML (or as anything).
 * A call that asks for JSON (apiFetch) gets a JSON 404 instead of the page.
 * @param {import('node:http').IncomingMessage} req
 */
function isPageRequest(req) {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path === '/' || extname(path) !== '') return false;
  const accept = req.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} message
 */
function sendError(res, status, message) {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': NO_STORE,
  });
  res.end(body);
}

/**
 * Serves a folder over HTTP.
 * @param {{ dir: string, port?: number, host?: string, spa?: boolean, cors?: boolean }} options
 *   spa: page requests for unknown paths without a file extension answer index.html (the shell's routes);
 *   cors: allow any origin to read the files (remotes loaded straight from their port, without the gateway).
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export async function serveStatic({ dir, port = 0, host = '0.0.0.0', spa = false, cors = false }) {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new Error(`Not a directory: ${root}`);

  const files = sirv(root, {
    // dev: look files up on each request, so a rebuild is served without a restart.
    dev: true,
    etag: true,
    // The builds write .br and .gz beside every text asset: answered by Accept-Encoding, with Vary.
    brotli: true,
    gzip: true,
    dotfiles: false,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlFor(pathname));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (cors) res.setHeader('Access-Control-Allow-Origin', '*');
    },
    onNoMatch(req, res) {
      if (spa && isPageRequest(req)) {
        // The shell's client-side routes (/order/42) are answered by its index.html.
        req.url = '/';
        files(req, res);
        return;
      }
      sendError(res, 404, 'Not found');
    },
  });

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health/live' || path === '/health/ready') {
      const body = JSON.stringify({ status: 'ok' });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': NO_STORE });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (req.method === 'OPTIONS' && cors) {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      sendError(res, 405, 'Method not allowed');
      return;
    }
    files(req, res);
  });

  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolveListen(undefined);
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost}:${boundPort}`,
    port: boundPort,
    close: () =>
      new Promise((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '0.0.0.0' },
      spa: { type: 'boolean', default: false },
      cors: { type: 'boolean', default: false },
    },
  });
  if (!values.dir) {
    console.error(
      'usage: node tools/src/serve-static.mjs --dir <dist> --port <n> [--host <addr>] [--spa] [--cors]',
    );
    process.exit(2);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid --port: ${values.port}`);
    process.exit(2);
  }
  const server = await serveStatic({
    dir: values.dir,
    port,
    host: values.host,
    spa: values.spa,
    cors: values.cors,
  });
  console.log(JSON.stringify({ msg: 'serving', dir: resolve(values.dir), url: server.url, spa: values.spa }));
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
