import { atom, type Getter } from 'jotai';
import { useSyncExternalStore } from 'react';
import { genericFailure, parseJson, serverMessage } from '../http/api-fetch';

/**
 * An answer a read got on the server while the page was rendered there (docs/decisions/0020): the screen
 * renders from it on the server, and the browser's first render takes the same answer from the page instead
 * of asking again, so hydration sees the tree the server drew.
 */
export type ServerAnswer =
  | { status: number; ok: true; data: unknown; headers?: Readonly<Record<string, string>> }
  | { status: number; ok: false; message: string };

/** The answers a page was rendered from, by the path each read asks (`/api/products/slug/ar-15`). */
export type ServerAnswers = Readonly<Record<string, ServerAnswer>>;

/**
 * The data a server-rendered page carries for its hydration, in one `application/json` data block (never run
 * as a script, so the page's strict CSP holds): the answers, the site's public origin and which version of
 * each remote drew its part.
 */
export interface FirstScreenData {
  answers: ServerAnswers;
  /** The site's public origin (`https://shop.example.com`), from which canonical and share URLs are made. */
  origin: string;
  /** Remote name → the version whose render the page holds. */
  remotes: Readonly<Record<string, string>>;
}

/** The id of the page's data block. */
export const FIRST_SCREEN_DATA_ID = 'shop-first-screen';

/** Answers a render may take (on the server: one request's; in the browser: the page's, until each is used). */
export const serverAnswersAtom = atom<Record<string, ServerAnswer>>({});

/**
 * On the server, while a page's reads are being found: the paths read without an answer yet (the render
 * server fetches them and renders again). Null in the browser.
 */
export const unansweredReadsAtom = atom<Set<string> | null>(null);

/** The public origin canonical URLs are made from: the page's own unless the server said otherwise. */
export const siteOriginAtom = atom<string>(globalThis.location?.origin ?? 'http://localhost');

/** The server's answer for this path, if the page was rendered with one. */
export function serverAnswerFor(get: Getter, path: string): ServerAnswer | undefined {
  return Object.hasOwn(get(serverAnswersAtom), path) ? get(serverAnswersAtom)[path] : undefined;
}

/** Answer headers a rendered page keeps (what screens read besides the body: the size of a paged list). */
export const KEPT_ANSWER_HEADERS = ['x-total-count'] as const;

/** Reads the page's data block; undefined when the page was not rendered on the server (or the block is damaged). */
export function readFirstScreenData(doc: Document = document): FirstScreenData | undefined {
  const text = doc.getElementById(FIRST_SCREEN_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as Partial<FirstScreenData>;
    if (typeof data !== 'object' || data === null || typeof data.answers !== 'object') return undefined;
    return {
      answers: data.answers ?? {},
      origin: typeof data.origin === 'string' ? data.origin : location.origin,
      remotes: data.remotes ?? {},
    };
  } catch {
    return undefined;
  }
}

/**
 * The data block's text: JSON with `<`, `>`, `&` and the line separators escaped, so no value (a product name
 * holding `</script>`) can end the block early.
 */
export function firstScreenDataText(data: FirstScreenData): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const subscribeToNothing = () => () => undefined;

/**
 * False while React renders on the server or hydrates the server's HTML, true afterwards (and from the
 * start of a page rendered in the browser). What only the browser knows (the stored cart, the signed-in user,
 * the saved theme) is shown once this is true, so hydration sees what the server drew.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * A service's answer as a rendered page keeps it: the body and kept headers of a success, or the message the
 * browser's client would show for a failure (the same words, so hydration matches). Undefined for an answer a
 * retry may change (5xx) or that is not JSON: such a read cannot be drawn on the server.
 */
export async function serverAnswerOf(response: Response): Promise<ServerAnswer | undefined> {
  if (response.status >= 500) return undefined;
  const parsed = parseJson(await response.text());
  if (!response.ok) {
    return {
      status: response.status,
      ok: false,
      message: serverMessage(parsed) ?? genericFailure(response.status),
    };
  }
  if (parsed === undefined || typeof parsed === 'symbol') return undefined;
  const headers: Record<string, string> = {};
  for (const name of KEPT_ANSWER_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, ok: true, data: parsed, headers };
}
