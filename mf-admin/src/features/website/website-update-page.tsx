import { DATA_API, type SiteSettings } from '@shop/contracts';
import { apiFetch } from '@shop/state';
import { LoadingBox, MessageBox } from '@shop/ui';
import { useEffect, useState } from 'react';
import shared from '../../shared/admin.module.css';
import { errorMessage, isAbort } from '../../shared/error-message';
import { WebsiteForm } from './website-form';

type Settings =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; record: SiteSettings | undefined };

/** Website update (spec §2, admin): the first settings record's name, currency and logo. */
export default function WebsiteUpdatePage() {
  const [settings, setSettings] = useState<Settings>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    apiFetch<SiteSettings[]>(`${DATA_API}/all-data`, { signal: controller.signal }).then(
      (records) => setSettings({ status: 'loaded', record: Array.isArray(records) ? records[0] : undefined }),
      (error: unknown) => {
        if (!isAbort(error, controller.signal))
          setSettings({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, []);

  return (
    <section className={shared['page']}>
      <title>Website Update</title>
      <h1 className={shared['heading']}>Website Update</h1>
      {settings.status === 'loading' && <LoadingBox />}
      {settings.status === 'failed' && <MessageBox variant="danger">{settings.message}</MessageBox>}
      {settings.status === 'loaded' &&
        (settings.record ? (
          <WebsiteForm
            record={settings.record}
            onSaved={(record) => setSettings({ status: 'loaded', record })}
          />
        ) : (
          <MessageBox>No data available</MessageBox>
        ))}
    </section>
  );
}
