import { SITE_SETTINGS_API, type SiteSettings } from '@shop/contracts';
import { LoadingBox, MessageBox, useApiGet } from '@shop/ui';
import { AdminScreen } from '../../shared/admin-screen';
import { WebsiteForm } from './website-form';

/**
 * Website update (docs/product/screens.md, "Website update"): the first settings record's name, currency
 * and logo.
 */
export default function WebsiteUpdatePage() {
  const settings = useApiGet<SiteSettings[]>(SITE_SETTINGS_API);
  const record =
    settings.status === 'loaded' && Array.isArray(settings.response.data)
      ? settings.response.data[0]
      : undefined;

  return (
    <AdminScreen title="Website Update">
      {settings.status === 'loading' && <LoadingBox />}
      {settings.status === 'failed' && <MessageBox variant="danger">{settings.message}</MessageBox>}
      {settings.status === 'loaded' &&
        (record ? (
          <WebsiteForm record={record} onSaved={(saved) => settings.replace([saved])} />
        ) : (
          <MessageBox>No data available</MessageBox>
        ))}
    </AdminScreen>
  );
}
