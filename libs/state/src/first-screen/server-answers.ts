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
 * JSON for a data block (`<script type="application/json">`): `<`, `>`, `&` and the line separators escaped,
 * so no value (a product name holding `</script>`) can end the block early.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The first-screen data block's text ({@link scriptSafeJson}). */
export function firstScreenDataText(data: FirstScreenData): string {
  return scriptSafeJson(data);
}
