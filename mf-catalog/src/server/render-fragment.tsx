import { PRODUCT_SLUG_PATTERN, PRODUCTS_API, SITE_SETTINGS_API, type SiteSettings } from '@shop/contracts';
import { siteSettingsAtom, siteSettingsFromRecords } from '@shop/state';
import type { ServerAnswer } from '@shop/state/first-screen';
import {
  type TreePosition,
  atTreePosition,
  serverAnswersAtom,
  siteOriginAtom,
  unansweredReadsAtom,
} from '@shop/ui';
import { Provider, createStore } from 'jotai';
import { Route, Routes, matchPath } from 'react-router-dom';
import { StaticRouter } from 'react-router';
import { renderToHtml, splitHead } from '@shop/ui/server';
import { SERVER_SCREENS } from './screens';

/** What the shell's page server asks for: a screen, at a URL, under the route pattern the shell placed it on. */
export interface FragmentRequest {
  /** The exposed screen (`ProductPage`). */
  screen: string;
  /** The shell's route pattern for it (`/product/:slug`), so the screen reads the same parameters. */
  route: string;
  /** The page's path and query (`/product/ar-15`). */
  url: string;
  /** The shop's public origin, from which canonical and share URLs are made. */
  origin: string;
  /** Where the page's layout places the screen (its useId path); the root when absent. */
  position?: TreePosition;
}

/** One screen rendered: its HTML, what belongs in the page's head, and the answers it was drawn from. */
export interface Fragment {
  /** The remote's version that drew it: the page hydrates it only with this version's code. */
  version: string;
  /** 200, or 404 for a product or category that does not exist. */
  status: number;
  /** `<title>`, `<meta>` and `<link>` the screen sets, and its JSON-LD data blocks, for the page's head. */
  head: string;
  /** The screen itself. */
  html: string;
  answers: Record<string, ServerAnswer>;
}

// The screen's JSON-LD (page-metadata.server.tsx). Its text escapes `<`, so no block holds a `</script>`
// before its own end, and a shopper's text shows as text: `&lt;script…`, never this.
const DATA_BLOCK = /<script type="application\/ld\+json">[\s\S]*?<\/script>/g;

/**
 * A render's head (hoisted tags, then the JSON-LD blocks taken out of the screen) and the screen: the
 * browser's code draws no JSON-LD, so blocks left in the screen would not match it when it takes over.
 */
function headAndScreen(html: string): { head: string; body: string } {
  const { head, body } = splitHead(html);
  const blocks = body.match(DATA_BLOCK) ?? [];
  return { head: head + blocks.join(''), body: body.replace(DATA_BLOCK, '') };
}

/** A read the render depends on failed for a reason a retry may fix: the page draws this part in the browser. */
export class FragmentUnavailable extends Error {}

/** Reads the render asks for, answered by the services (through the gateway, as the browser's are). */
export type ReadAnswer = (path: string) => Promise<ServerAnswer>;

/** How many rounds of reads a screen may need (each round's reads depend on the answers of the one before). */
const MAX_READ_ROUNDS = 3;

/** The page's status: 404 for a product that does not exist, and for a category no product is in. */
export function fragmentStatus(request: FragmentRequest, answers: Record<string, ServerAnswer>): number {
  for (const [path, answer] of Object.entries(answers)) {
    if (path !== SITE_SETTINGS_API && answer.status === 404) return 404;
  }
  // A slug no product could have is not even asked for: the screen says not found at once.
  if (request.screen === 'ProductPage') {
    const slug = matchPath(request.route, new URL(request.url, 'http://page').pathname)?.params['slug'];
    if (slug === undefined || !PRODUCT_SLUG_PATTERN.test(slug)) return 404;
  }
  if (request.screen === 'CategoryPage') {
    const url = new URL(request.url, 'http://page');
    const filtered = [...url.searchParams.keys()].length > 0;
    const lists = Object.entries(answers).filter(([path]) => path.startsWith(`${PRODUCTS_API}?`));
    const empty =
      lists.length > 0 &&
      lists.every(([, answer]) => answer.ok && Array.isArray(answer.data) && answer.data.length === 0);
    if (!filtered && empty) return 404;
  }
  return 200;
}

/**
 * Renders one screen as the browser would draw it with these answers: reads the screen asks for are fetched
 * and the screen rendered again, until it asks for nothing more.
 */
export async function renderFragment(
  request: FragmentRequest,
  read: ReadAnswer,
  version: string,
): Promise<Fragment> {
  const Screen = SERVER_SCREENS[request.screen];
  if (!Screen) throw new RangeError(`No screen named ${request.screen}`);
  const answers: Record<string, ServerAnswer> = {};
  const settings = await read(SITE_SETTINGS_API);
  if (settings.ok) answers[SITE_SETTINGS_API] = settings;

  for (let round = 0; ; round += 1) {
    const store = createStore();
    const unanswered = new Set<string>();
    store.set(serverAnswersAtom, { ...answers });
    store.set(unansweredReadsAtom, unanswered);
    store.set(siteOriginAtom, request.origin);
    if (settings.ok && Array.isArray(settings.data))
      store.set(siteSettingsAtom, siteSettingsFromRecords(settings.data as SiteSettings[]));
    const output = await renderToHtml(
      <Provider store={store}>
        <StaticRouter location={request.url}>
          <Routes>
            <Route path={request.route} element={atTreePosition(<Screen />, request.position ?? [])} />
          </Routes>
        </StaticRouter>
      </Provider>,
      { strict: true },
    );
    if (unanswered.size === 0) {
      const { head, body } = headAndScreen(output);
      return { version, status: fragmentStatus(request, answers), head, html: body, answers };
    }
    if (round + 1 >= MAX_READ_ROUNDS) throw new FragmentUnavailable('The screen kept asking for more reads');
    const paths = [...unanswered];
    const fetched = await Promise.all(paths.map(read));
    paths.forEach((path, index) => (answers[path] = fetched[index]!));
  }
}
