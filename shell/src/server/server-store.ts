import { SITE_SETTINGS_API, type SiteSettings } from '@shop/contracts';
import { siteSettingsAtom, siteSettingsFromRecords } from '@shop/state';
import type { ServerAnswer } from '@shop/state/first-screen';
import { siteOriginAtom } from '@shop/ui';
import { createStore } from 'jotai';

/**
 * One page's store on the server: the site settings and origin the screen was rendered with, as the browser's
 * store will hold them when it hydrates (shell/src/bootstrap.tsx). Nothing of any shopper's own.
 */
export function shopStoreFor(answers: Readonly<Record<string, ServerAnswer>>, origin: string) {
  const store = createStore();
  store.set(siteOriginAtom, origin);
  const settings = answers[SITE_SETTINGS_API];
  if (settings?.ok && Array.isArray(settings.data))
    store.set(siteSettingsAtom, siteSettingsFromRecords(settings.data as SiteSettings[]));
  return store;
}
