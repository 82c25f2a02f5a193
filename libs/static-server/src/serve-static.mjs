#!/usr/bin/env node
// Static server for the built front-ends (shell and remotes) on a developer's machine and in the tests,
// with the layout of their nginx image: each build under its version, the environment's files at the root.
// Caching follows docs/decisions/0011-versioned-front-ends.md: the remotes manifest is never stored, the files that name other files
// (index.html, mf-manifest.json, remoteEntry.js) are revalidated on every use, content-hashed files are
// immutable. Unlike nginx, which holds only released versions and marks all of a version immutable, this
// server revalidates unhashed names inside a version too: locally a version is rebuilt in place all day.
import { createServer } from 'node:http';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { REPORTING_ENDPOINTS } from './page-policy.mjs';
import { proxyPage } from './page-proxy.mjs';
import {
  cacheControlFor,
  describeBuild,
  isPageRequest,
  NO_STORE,
  pageFile,
  policyOf,
  sendError,
  VERSION,
} from './static-files.mjs';

export { cacheControlFor, describeBuild };

/**
 * Serves built front-ends over HTTP, laid out as their nginx image is (docs/decisions/0011):
 * each build under its own version (`/0.1.0/remoteEntry.js`), several side by side, and the files of the
 * environment (remotes.json, site.json) at the root.
 * @param {{ dir?: string | string[], builds?: Record<string, string>, release?: string, port?: number, host?: string,
 *   spa?: boolean, cors?: boolean, pages?: string }} options
 *   dir: files served at the root as they are (the environment's files, or a build of the flat layout),
 *     searched in the order given;
 *   builds: version → build folder, each served under `/<version>/`;
 *   release: the version whose files answer root paths that `dir` lacks (the shell's index.html for `/`,
 *     its favicon, its default remotes.json);
 *   spa: page requests for unknown paths without a file extension answer the page (the shell's routes);
 *   cors: allow any origin to read the files (remotes loaded straight from their port, without the gateway);
 *   pages: the shell's page server (docs/decisions/0020), which answers page requests with the storefront
 *     rendered on the server; when it fails or is slow, the page is answered as without it.
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void>,
 *   publish: (version: string, dir: string) => void }>}
 *   publish: serves one more build beside the others, without a restart (a new version, before it is named).
 */
export async function serveStatic({
  dir,
  builds = {},
  release,
  port = 0,
  host = '0.0.0.0',
  spa = false,
  cors = false,
  pages,
}) {
  const folder = (path) => {
    const absolute = resolve(path);
    if (!existsSync(absolute) || !statSync(absolute).isDirectory())
      throw new Error(`Not a directory: ${absolute}`);
    return absolute;
  };
  const rootDirs = dir === undefined ? [] : [dir].flat();
  if (rootDirs.length === 0 && Object.keys(builds).length === 0)
    throw new Error('Nothing to serve: give a dir or builds');
  if (release !== undefined && !(release in builds))
    throw new Error(`The release ${release} is not among the builds`);

  /** @param {string} root */
  /** @param {string} root */
  const filesOf = (root) => {
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
    });
    /** @type {typeof files} */
    return (req, res, next) => {
      // Before sirv, whose 304 skips setHeaders: a browser updates the page's stored headers from a 304,
      // and one without the page's policy would get the gateway's locked-down policy instead.
      const page = pageFile(root, new URL(req.url ?? '/', 'http://x').pathname);
      if (page) {
        res.setHeader('Content-Security-Policy', policyOf(page));
        res.setHeader('Reporting-Endpoints', REPORTING_ENDPOINTS);
      }
      files(req, res, next);
    };
  };
  // Several root folders are searched in order: the environment's files first, then a flat build.
  const rootFiles = rootDirs.map((root) => filesOf(folder(root)));
  /** @type {Map<string, ReturnType<typeof sirv>>} */
  const versions = new Map();
  const publish = (version, buildDir) => {
    if (!VERSION.test(version)) throw new Error(`Not a version: ${version}`);
    versions.set(version, filesOf(folder(buildDir)));
  };
  for (const [version, buildDir] of Object.entries(builds)) publish(version, buildDir);

  /**
   * `/0.1.0/main.js` from the build of 0.1.0; any other path from `dir`, then from the release's build,
   * then (a page of the single-page app) the page itself; else a JSON 404.
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  const serveFile = (req, res) => {
    const url = req.url ?? '/';
    const [, first = '', rest = ''] = /^\/([^/?]*)(.*)$/.exec(url) ?? [];
    const versionFiles = versions.get(first);
    const notFound = () => sendError(res, 404, 'Not found');
    if (versionFiles) {
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      versionFiles(req, res, notFound);
      return;
    }
    const releaseFiles = release === undefined ? undefined : versions.get(release);
    const page = () => {
      if (!(spa && isPageRequest(req))) return notFound();
      // The shell's client-side routes (/order/42) are answered by its index.html.
      req.url = '/index.html';
      const pageFiles = releaseFiles ?? rootFiles.at(-1);
      if (pageFiles) pageFiles(req, res, notFound);
      else notFound();
    };
    const fromRelease = () => {
      req.url = url;
      if (releaseFiles) releaseFiles(req, res, page);
      else page();
    };
    const fromRoot = (index) => {
      req.url = url;
      if (index < rootFiles.length) rootFiles[index](req, res, () => fromRoot(index + 1));
      else fromRelease();
    };
    fromRoot(0);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (pages && spa && (req.method === 'GET' || req.method === 'HEAD') && isPageOrRoot(req)) {
      proxyPage(req, res, pages, () => serveFile(req, res));
      return;
    }
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
    serveFile(req, res);
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
    publish,
    close: () =>
      new Promise((resolveClose, reject) => {
        server.close((error) => (error ? reject(error) : resolveClose()));
        server.closeAllConnections();
      }),
  };
}

/** A page request, `/` included (which sirv would answer with index.html). */
function isPageOrRoot(req) {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/') return isPageRequest(req);
  const accept = req.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

async function main() {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      build: { type: 'string', multiple: true, default: [] },
      release: { type: 'string' },
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '0.0.0.0' },
      spa: { type: 'boolean', default: false },
      cors: { type: 'boolean', default: false },
      pages: { type: 'string' },
    },
  });
  if (!values.dir && values.build.length === 0) {
    console.error(
      'usage: node libs/static-server/src/serve-static.mjs [--dir <root>] [--build <dist> ...] [--release <version>] --port <n>' +
        ' [--host <addr>] [--spa] [--cors]\n' +
        '  --build serves a build under /<its version>/; --dir serves a folder at the root as it is.',
    );
    process.exit(2);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid --port: ${values.port}`);
    process.exit(2);
  }
  const builds = Object.fromEntries(values.build.map((build) => [describeBuild(build).version, build]));
  // A page needs a version to answer it: the last build given, unless told otherwise.
  const release = values.release ?? (values.spa ? Object.keys(builds).at(-1) : undefined);
  const server = await serveStatic({
    dir: values.dir,
    builds,
    release,
    port,
    host: values.host,
    spa: values.spa,
    cors: values.cors,
    pages: values.pages,
  });
  console.log(
    JSON.stringify({ msg: 'serving', dir: values.dir, builds, release, url: server.url, spa: values.spa }),
  );
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
