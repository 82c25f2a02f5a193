import { PRODUCTS_API, SITE_SETTINGS_API } from '@shop/contracts';
// The page's first script: webpack builds this module on its own and writes it inline into index.html's head
// (tools/webpack-preset/inline-start-plugin.cjs), so it runs as soon as the HTML is parsed, while every script file
// is still on its way. It only starts downloads: calls the first screen needs, whose answers the shell's
// code takes over (libs/state/src/http/prefetch.ts, through a global registry), and preload hints for what
// those answers name. Keep it small: every byte is in the HTML of every page.
import { prefetchCall } from '@shop/state/prefetch';
import { preloadRemoteModule } from '../federation/remote-preload';
import { REMOTES_MANIFEST_URL } from '../federation/remotes-manifest';
import { preloadFirstRowImages } from './grid-image-preload';
import { markHintsPlacing } from './hints-placed';
import { afterNextPaint, firstPicturesIn, readPageCode, startPageCode } from './page-code';
import { warmUpWhileWaiting } from './warm-up';
import { RENDERED_ATTRIBUTE } from './rendered-attribute';
import { applyEarlyTheme } from './early-theme';

applyEarlyTheme();

// A page the page server rendered (docs/decisions/0020) holds its data and its pictures' tags already,
// and lists its script files instead of loading them (page-code.ts): its content paints first, and the
// code that takes it over starts once the first screen's pictures are painted.
const rendered = document.documentElement.hasAttribute(RENDERED_ATTRIBUTE);
const home = window.location.pathname === '/';

if (rendered) {
  // Before the first paint only the theme above: the manifest's fetch (its first trace id's random bytes) and
  // the warm-up are main-thread work that would delay the paint of the content that is already here. They
  // run once the first pictures are painted, beside the code's downloads.
  void firstPicturesIn()
    .then(() => afterNextPaint())
    .then(() => {
      prefetchCall(REMOTES_MANIFEST_URL, 'no-store');
      if (home) markHintsPlacing(preloadRemoteModule('catalog', './HomePage'));
      const code = readPageCode();
      if (code) startPageCode(code);
      warmUpWhileWaiting();
    });
} else {
  // The remotes manifest (no-store: it changes per environment, not per build) and the site's settings,
  // which the layout shows.
  prefetchCall(REMOTES_MANIFEST_URL, 'no-store');
  prefetchCall(SITE_SETTINGS_API);
  // The home screen: the catalogue (mf-catalog's home asks for this same constant), the catalog
  // remote's home screen code and the grid's first row of pictures, each as soon as its address is known.
  if (home) {
    prefetchCall(PRODUCTS_API);
    markHintsPlacing(
      Promise.all([preloadRemoteModule('catalog', './HomePage'), preloadFirstRowImages(PRODUCTS_API)]),
    );
  }
  warmUpWhileWaiting();
}
