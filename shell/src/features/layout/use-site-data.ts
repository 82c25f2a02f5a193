import { SITE_SETTINGS_API, type SiteSettings } from '@shop/contracts';
import { DEFAULT_SITE_SETTINGS, apiFetch, siteSettingsAtom, siteSettingsFromRecords } from '@shop/state';
import { errorMessage, showToast } from '@shop/ui';
import { useAtom } from 'jotai';
import { useEffect } from 'react';

/**
 * Loads the site name, currency and logo from the first record of `GET /api/data/all-data` whenever the
 * settings are at their defaults (first visit, after sign-out); a failure is an error toast.
 */
export function useSiteData(): void {
  const [settings, setSettings] = useAtom(siteSettingsAtom);
  const needsLoading = settings === DEFAULT_SITE_SETTINGS;

  useEffect(() => {
    if (!needsLoading) return;
    let current = true;
    apiFetch<SiteSettings[]>(SITE_SETTINGS_API).then(
      (records) => {
        if (current && Array.isArray(records) && records.length > 0)
          setSettings(siteSettingsFromRecords(records));
      },
      (error: unknown) => {
        if (current)
          showToast('error', errorMessage(error), {
            toastId: 'site-data',
          });
      },
    );
    return () => {
      current = false;
    };
  }, [needsLoading, setSettings]);
}
