// The Content-Security-Policy of the shop's page (docs/security.md), for every server of the shell's
// builds: the local static server answers it with each page, and the front-end image's build writes it into
// nginx's configuration (docker/nginx/page-policy-map.mjs). No dependencies: the image's build runs it with
// nothing installed.
import { createHash } from 'node:crypto';

/** Where browsers send violation reports (the data service logs and counts them). */
export const CSP_REPORT_PATH = '/api/csp-reports';

/** `Reporting-Endpoints`: the endpoint named by the policy's `report-to`. */
export const REPORTING_ENDPOINTS = `csp="${CSP_REPORT_PATH}"`;

// An inline script: a <script> element without src (html-webpack-plugin writes attributes before `>`).
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * CSP source expressions (`'sha256-…'`) of the inline scripts of a page, in order: what lets the shell's
 * start script run while no other inline script can.
 * @param {string} html
 * @returns {string[]}
 */
export function inlineScriptHashes(html) {
  const hashes = [];
  for (const [, attributes = '', code = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes) || code === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The page's policy. Each source beyond 'self' is an exception docs/security.md explains.
 * @param {{ scriptHashes: string[], connectSources?: string[] }} options
 *   scriptHashes: the page's inline scripts ({@link inlineScriptHashes});
 *   connectSources: more origins the page may call (a browser trace collector, say), configuration.
 * @returns {string}
 */
export function pagePolicy({ scriptHashes, connectSources = [] }) {
  return [
    "default-src 'none'",
    // The shell and every remote, every version, come from the shop's own origin (/<version>/…,
    // /remotes/<name>/<version>/…); the one inline script is the start script, by its hash.
    ['script-src', "'self'", ...scriptHashes].join(' '),
    // style-loader (each front-end's CSS Modules), react-toastify and Radix's scroll lock insert <style>
    // elements at run time, whose content no build can know beforehand.
    "style-src 'self' 'unsafe-inline'",
    // data: the page's inline favicon; blob: the previews of images chosen for upload.
    "img-src 'self' data: blob:",
    // The about page's hero clip, from the catalog remote's files.
    "media-src 'self'",
    "font-src 'self'",
    ['connect-src', "'self'", ...connectSources].join(' '),
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // report-uri for browsers without the Reporting API; Chromium uses report-to and ignores it.
    `report-uri ${CSP_REPORT_PATH}`,
    'report-to csp',
  ].join('; ');
}
