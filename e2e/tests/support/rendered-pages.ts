// What the server-rendering specs share: a product of the spec's own, a page as a client without scripts
// gets it, reading its tags, and the console problems of a page the browser takes over.
import type { ConsoleMessage, Page } from '@playwright/test';
import type { Product } from '@shop/contracts';
import { createListing } from './listings';

/** A product an admin adds to a spec's own category, with a seeded product's picture. */
export function productIn(
  category: string,
  baseURL: string,
  adminToken: string,
  fields: { name: string; description: string; price: number; countInStock: number },
): Promise<Product> {
  return createListing(baseURL, adminToken, { ...fields, brand: 'Acme Arms', category });
}

/** A page as a client that runs no script gets it: status, headers and the HTML text. */
export async function fetchPage(baseURL: string, path: string) {
  const response = await fetch(`${baseURL}${path}`, { headers: { Accept: 'text/html' } });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The attribute of the first tag matching `selector`-like pattern: `<link rel="canonical" href="…">`. */
export function tagAttribute(html: string, tag: RegExp, attribute: string): string | undefined {
  const element = tag.exec(html)?.[0];
  if (!element) return undefined;
  const value = new RegExp(`\\b${attribute}="([^"]*)"`).exec(element)?.[1];
  return value
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

export const metaProperty = (html: string, property: string) =>
  tagAttribute(html, new RegExp(`<meta property="${property}"[^>]*>`), 'content');

/** Every JSON-LD block of the page, parsed (a block that is not JSON fails the test). */
export function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    ([, text]) => JSON.parse(text!) as Record<string, unknown>,
  );
}

export const titleOf = (html: string) =>
  /<title>([\s\S]*?)<\/title>/
    .exec(html)?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"');

/** The content React rendered into #root (the layout and the screen), not the page's head or scripts. */
export const rootOf = (html: string) =>
  /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';

/** Console messages that say React could not take the server's HTML over (or anything else went wrong). */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
