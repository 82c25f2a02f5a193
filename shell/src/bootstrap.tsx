import { registerPlugins } from '@module-federation/enhanced/runtime';
import { SITE_SETTINGS_API, type SiteSettings } from '@shop/contracts';
import { modeAtom, shopStore, siteSettingsAtom, siteSettingsFromRecords } from '@shop/state';
import { readFirstScreenData } from '@shop/state/first-screen';
import { serverAnswersAtom, siteOriginAtom } from '@shop/ui';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { DRAWN_IN_BROWSER_DIGEST } from './federation/drawn-in-browser';
import { earlyRemoteEntryPlugin } from './federation/early-remote-entry.runtime-plugin';
import { prefetchedManifestPlugin } from './federation/prefetched-manifest.runtime-plugin';
import { remoteFallbackPlugin } from './federation/remote-fallback.runtime-plugin';
import { startRemotes } from './federation/remote-registry';
import './styles/global.css';

registerPlugins([prefetchedManifestPlugin(), earlyRemoteEntryPlugin(), remoteFallbackPlugin()]);
void startRemotes();

// Set before the first paint so a dark-mode visitor never sees a light flash.
document.body.dataset['theme'] = shopStore.get(modeAtom);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A page the page server rendered (docs/decisions/0020) carries the answers it was drawn from: the store
// starts from them, so the first render in the browser is the server's, and React takes its HTML over.
const rendered = readFirstScreenData();
if (rendered) {
  shopStore.set(serverAnswersAtom, { ...rendered.answers });
  shopStore.set(siteOriginAtom, rendered.origin);
  const settings = rendered.answers[SITE_SETTINGS_API];
  if (settings?.ok && Array.isArray(settings.data))
    shopStore.set(siteSettingsAtom, siteSettingsFromRecords(settings.data as SiteSettings[]));
  // In a transition, React takes the page over in slices of a few milliseconds, giving the main thread
  // back between them (a click meanwhile hydrates its own part first); outside one, the whole page is
  // one long task (Lighthouse's total blocking time on `/`, docs/performance.md).
  startTransition(() => {
    hydrateRoot(container, app, {
      onRecoverableError: (error, info) => {
        // A part the server left to the browser on purpose (its remote was slow or down) is not a failure.
        const digest = (error as { digest?: unknown } | null)?.digest;
        if (digest === DRAWN_IN_BROWSER_DIGEST) return;
        console.error(
          'The page could not take over its server-rendered HTML',
          error,
          info.componentStack ?? '',
        );
      },
    });
  });
} else {
  createRoot(container).render(app);
}
