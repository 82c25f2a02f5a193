// What the static server knows about the files of a built front-end: how long each may be kept, which
// request is a page, the page's Content-Security-Policy, the build's version (libs/static-server/src/serve-static.mjs).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { inlineScriptHashes, pagePolicy } from './page-policy.mjs';

export const NO_STORE = 'no-store';
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
export function isPageRequest(req) {
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
export function sendError(res, status, message) {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': NO_STORE,
  });
  res.end(body);
}

/** @type {Map<string, { version: string, policy: string }>} */
const policies = new Map();

/**
 * The Content-Security-Policy of a page file, with the hashes of its own inline scripts: each build's page
 * gets the policy of that build, read again when the file changes (a local rebuild in place).
 * @param {string} file
 */
export function policyOf(file) {
  const { mtimeMs, size } = statSync(file);
  const version = `${mtimeMs}/${size}`;
  const known = policies.get(file);
  if (known?.version === version) return known.policy;
  const policy = pagePolicy({ scriptHashes: inlineScriptHashes(readFileSync(file, 'utf8')) });
  policies.set(file, { version, policy });
  return policy;
}

/**
 * The HTML file sirv answers a path with (`/` is `/index.html`, `/about` may be `/about.html`), if any.
 * @param {string} root
 * @param {string} pathname
 */
export function pageFile(root, pathname) {
  const name = pathname.endsWith('/')
    ? `${pathname}index.html`
    : extname(pathname) === ''
      ? `${pathname}.html`
      : pathname;
  const file = join(root, name);
  return extname(name) === '.html' && existsSync(file) ? file : undefined;
}

/** A version folder's name: the package.json version of the build in it (0.1.0, 1.2.0-rc.1). */
export const VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;

/**
 * What a build says about itself in its mf-manifest.json: its package.json version, and whether it expects
 * to be served under that version (`/0.1.0/`: the shell since versioned paths; `auto`: every remote) or
 * at the root (`/`: shells built before, such as the previous release in the compatibility test).
 * @param {string} dir a built front-end (its dist folder)
 * @returns {{ version: string, versioned: boolean }}
 */
export function describeBuild(dir) {
  const manifestFile = join(dir, 'mf-manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`Not a front-end build (no mf-manifest.json): ${dir}`);
  const { metaData } = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const version = metaData?.buildInfo?.buildVersion;
  if (typeof version !== 'string' || !VERSION.test(version)) {
    throw new Error(`${manifestFile} names no usable version (buildInfo.buildVersion: ${version})`);
  }
  return { version, versioned: metaData.publicPath !== '/' };
}
