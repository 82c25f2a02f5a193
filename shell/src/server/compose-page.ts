import {
  FIRST_SCREEN_DATA_ID,
  firstScreenDataText,
  type FirstScreenData,
  type ServerAnswer,
} from '@shop/state/first-screen';
import { RENDERED_ATTRIBUTE } from '../first-screen/rendered-attribute';

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

/**
 * The page: the shell's built index.html (its scripts, its start script, its policy's hashes) with the
 * rendered storefront in #root, the screen's title and metadata in the head in place of the page's defaults,
 * and the data the page hydrates from in one JSON data block.
 */
export function composePage(
  template: string,
  parts: { head: string; body: string; data: FirstScreenData },
): string {
  if (!ROOT.test(template)) throw new Error('The page template has no <div id="root"></div>');
  let page = template.replace(NEEDS_SCRIPT, '');
  // The screen's own title and description replace the page's defaults.
  if (TITLE.test(parts.head)) page = page.replace(TITLE, '');
  if (/<meta name="description"/.test(parts.head)) page = page.replace(DESCRIPTION, '');
  page = page.replace('</head>', () => `${parts.head}</head>`);
  page = page.replace(/<html\b/, `<html ${RENDERED_ATTRIBUTE}`);
  const data = `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${firstScreenDataText(parts.data)}</script>`;
  return page.replace(ROOT, () => `<div id="root">${parts.body}</div>${data}`);
}
