// A rendered page paints its content first and loads its code after (docs/rendering.md, "Content before
// code"): the page server takes the page's script files out of the HTML and lists them in a data block
// (shell/src/server/compose-page.ts); the inline start script (early-start.ts) loads them once the first
// screen's pictures are in. Part of the inline start: keep it small.
import { addPreloadLink } from './preload-link';

/** The id of the data block listing a rendered page's script files. */
export const PAGE_CODE_ID = 'shop-page-code';

/** A rendered page's script files, in the page's order: those it runs, and those it preloaded for them. */
export interface PageCode {
  scripts: string[];
  preload: string[];
}

/**
 * At most this long after the HTML is parsed the code starts even if a picture is still loading: the
 * first screen is then past "good" for Largest Contentful Paint (2.5 s) anyway, and the shopper should
 * not wait longer for the controls.
 */
export const PICTURES_WAIT_MS = 2_500;

/** Settles once the picture is decoded and can be painted as is, or could not be (a failed or removed one). */
function decoded(image: HTMLImageElement): Promise<void> {
  return typeof image.decode === 'function' ? image.decode().catch(() => undefined) : Promise.resolve();
}

/**
 * Settles once the HTML is parsed and every picture the first screen asks for first (`fetchpriority="high"`:
 * the grid's first row, the product's first picture) has loaded and been decoded, or failed, or at the
 * page's load event once those that loaded are decoded, or `maxWaitMs` after parsing, whichever comes first.
 * At once after parsing when there is none. Decoded, not only loaded: a large picture is decoded off the main
 * thread after its load event, and painted in a later frame than the one after that event.
 */
export function firstPicturesIn(maxWaitMs = PICTURES_WAIT_MS): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    const check = () => {
      setTimeout(done, maxWaitMs);
      const images = [...document.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]')];
      const arrived = (image: HTMLImageElement) =>
        image.complete
          ? Promise.resolve()
          : new Promise((settled) => {
              image.addEventListener('load', settled, { once: true });
              image.addEventListener('error', settled, { once: true });
            });
      void Promise.all(images.map((image) => arrived(image).then(() => decoded(image)))).then(done);
      // A picture that will not load by itself (one made lazy after all) must not hold the code back.
      const atLoad = () => void Promise.all(images.filter((image) => image.complete).map(decoded)).then(done);
      window.addEventListener('load', atLoad, { once: true });
    };
    if (document.readyState === 'loading')
      document.addEventListener('DOMContentLoaded', check, { once: true });
    else check();
  });
}

/**
 * Settles once the browser has painted what it has (the frame after the next animation frame), or after
 * `maxWaitMs` where no frame comes (a page opened in a background tab): code started at once after a picture
 * loads would run (hydration's long tasks) before the picture is painted, and delay its paint.
 */
export function afterNextPaint(maxWaitMs = 100): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, maxWaitMs);
  });
}

/** The page's code list; undefined when the page has none (not rendered, or damaged). */
export function readPageCode(): PageCode | undefined {
  try {
    const code = JSON.parse(document.getElementById(PAGE_CODE_ID)?.textContent ?? '') as Partial<PageCode>;
    const strings = (list: unknown) =>
      Array.isArray(list) && list.every((item) => typeof item === 'string') ? (list as string[]) : undefined;
    const scripts = strings(code.scripts);
    const preload = strings(code.preload);
    return scripts && preload ? { scripts, preload } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the page's code as its HTML would have: the preloaded files first (their downloads run beside the
 * entry's), then the scripts, run in their order, each as soon as it and those before it have arrived.
 */
export function startPageCode(code: PageCode): void {
  for (const href of code.preload) addPreloadLink({ as: 'script', href });
  for (const src of code.scripts) {
    const script = document.createElement('script');
    script.src = src;
    // A script added by code runs as soon as it arrives unless told otherwise: these keep their order.
    script.async = false;
    document.head.append(script);
  }
}
