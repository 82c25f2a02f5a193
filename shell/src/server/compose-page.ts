import {
  FIRST_SCREEN_DATA_ID,
  firstScreenDataText,
  scriptSafeJson,
  type FirstScreenData,
  type ServerAnswer,
} from '@shop/state/first-screen';
import { PAGE_CODE_ID, type PageCode } from '../first-screen/page-code';
import { RENDERED_ATTRIBUTE, renderedAttributeValue } from '../first-screen/rendered-attribute';

/** What a remote's render service answers for one screen (mf-catalog/src/server/render-fragment.tsx). */
export interface RemoteFragment {
  version: string;
  status: number;
  head: string;
  html: string;
  answers: Record<string, ServerAnswer>;
}

/** Whether a render service's answer has the fragment's shape (a service of another release may differ). */
export function isRemoteFragment(value: unknown): value is RemoteFragment {
  if (typeof value !== 'object' || value === null) return false;
  const fragment = value as Record<string, unknown>;
  return (
    typeof fragment['version'] === 'string' &&
    typeof fragment['status'] === 'number' &&
    typeof fragment['head'] === 'string' &&
    typeof fragment['html'] === 'string' &&
    typeof fragment['answers'] === 'object' &&
    fragment['answers'] !== null
  );
}

// The built page is minified: attribute quotes may be gone.
const ROOT = /<div id="?root"?><\/div>/;
const TITLE = /<title>[\s\S]*?<\/title>/;
const DESCRIPTION = /<meta name="?description"?[^>]*>/;
// "This shop needs JavaScript": not on a page whose content is there without it.
const NEEDS_SCRIPT = /<noscript>[\s\S]*?<\/noscript>/;
// The page's script files (an empty element with src) and their preload hints, whatever the attributes' order.
const ATTRIBUTE_VALUE = String.raw`("[^"]*"|'[^']*'|[^\s"'>]+)`;
const SCRIPT_FILE = new RegExp(String.raw`<script\b[^>]*?\bsrc=${ATTRIBUTE_VALUE}[^>]*><\/script>`, 'g');
const SCRIPT_PRELOAD = new RegExp(
  String.raw`<link\b(?=[^>]*\brel=["']?preload\b)(?=[^>]*\bas=["']?script\b)[^>]*?\bhref=${ATTRIBUTE_VALUE}[^>]*>`,
  'g',
);
const unquoted = (value: string) => value.replace(/^["']|["']$/g, '');

/**
 * The template with its script files and their preload hints taken out and listed in a data block instead,
 * for the start script to load once the first screen's pictures are in (first-screen/page-code.ts): on a
 * rendered page the content is there without them, and they would share the network with its pictures.
 */
export function deferPageCode(template: string): string {
  const code: PageCode = { scripts: [], preload: [] };
  const page = template
    .replace(SCRIPT_PRELOAD, (_tag, href: string) => {
      code.preload.push(unquoted(href));
      return '';
    })
    .replace(SCRIPT_FILE, (_tag, src: string) => {
      code.scripts.push(unquoted(src));
      return '';
    });
  const block = `<script type="application/json" id="${PAGE_CODE_ID}">${scriptSafeJson(code)}</script>`;
  return page.replace('</head>', () => `${block}</head>`);
}

/** The page around the storefront: all before #root's content, and all after it but for the data block. */
export interface PageFrame {
  /** The page up to and including `<div id="root">`. */
  before: string;
  /** The page from `</div>` on, with `tail` (the data block, then anything that comes with it) after #root. */
  after: (tail: string) => string;
}

/**
 * The page around the storefront: the shell's built index.html (its start script, its policy's hashes, its
 * script files listed to load after the first pictures), the screen's title and metadata in the head in place
 * of the page's defaults, and on <html> the remote versions it was drawn with. A streamed page (its remote
 * slower than the layout) is framed with no head of the screen's yet: that comes later ({@link lateHead}).
 */
export function framePage(
  template: string,
  parts: { head: string; remotes: FirstScreenData['remotes'] },
): PageFrame {
  if (!ROOT.test(template)) throw new Error('The page template has no <div id="root"></div>');
  let page = deferPageCode(template).replace(NEEDS_SCRIPT, '');
  // The screen's own title and description replace the page's defaults.
  if (TITLE.test(parts.head)) page = page.replace(TITLE, '');
  if (/<meta name="description"/.test(parts.head)) page = page.replace(DESCRIPTION, '');
  page = page.replace('</head>', () => `${parts.head}</head>`);
  // Safe in the attribute as it is: the names are the shell's own, the versions URI-encoded.
  const versions = renderedAttributeValue(parts.remotes);
  page = page.replace(/<html\b/, () => `<html ${RENDERED_ATTRIBUTE}="${versions}"`);
  const root = ROOT.exec(page)!;
  const before = `${page.slice(0, root.index)}<div id="root">`;
  const rest = page.slice(root.index + root[0].length);
  return { before, after: (tail) => `</div>${tail}${rest}` };
}

/** The data the page hydrates from, in one JSON data block. */
export function firstScreenDataBlock(data: FirstScreenData): string {
  return `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${firstScreenDataText(data)}</script>`;
}

/** The id of the inert holder of a streamed page's head elements, until its script moves them. */
export const LATE_HEAD_ID = 'shop-late-head';

/**
 * The head of a screen that came after its page's head was sent (a streamed page): inert in a <template>,
 * and moved into the head by a script of the page's `nonce`, in place of the page's default title and
 * description, before the page's code runs (that waits for the whole page).
 */
export function lateHead(head: string, nonce: string): string {
  if (!head) return '';
  const move =
    `(()=>{const t=document.getElementById(${JSON.stringify(LATE_HEAD_ID)}),h=document.head;` +
    `for(const e of [...t.content.children]){` +
    `if(e.localName==="title")h.querySelector("title")?.remove();` +
    `if(e.matches('meta[name="description"]'))h.querySelector('meta[name="description"]')?.remove();` +
    `h.append(e)}t.remove()})()`;
  return `<template id="${LATE_HEAD_ID}">${head}</template><script nonce="${nonce}">${move}</script>`;
}

/**
 * The page: the storefront rendered in #root of its frame ({@link framePage}), and the data the page
 * hydrates from in one JSON data block.
 */
export function composePage(
  template: string,
  parts: { head: string; body: string; data: FirstScreenData },
): string {
  const frame = framePage(template, { head: parts.head, remotes: parts.data.remotes });
  return `${frame.before}${parts.body}${frame.after(firstScreenDataBlock(parts.data))}`;
}
