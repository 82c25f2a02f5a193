import {
  DATA_API,
  SITE_SETTINGS_LIMITS,
  type SiteSettings,
  type UpdateSiteSettingsRequest,
} from '@shop/contracts';
import { apiFetch, siteSettingsAtom, siteSettingsFromRecords } from '@shop/state';
import { Button, showToast } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useId, useState } from 'react';
import shared from '../../shared/admin.module.css';
import { InputField } from '../../shared/field';
import { ImageUploadField, useFormImage } from '../../shared/image-upload-field';
import { useFormSubmit } from '../../shared/use-form-submit';

/**
 * Site Name, Currency, Logo and the default low-stock threshold of one settings record; a save shows in the
 * top bar at once.
 */
export function WebsiteForm({
  record,
  onSaved,
}: {
  record: SiteSettings;
  onSaved: (record: SiteSettings) => void;
}) {
  const [siteName, setSiteName] = useState(record.siteName);
  const [currency, setCurrency] = useState(record.currency);
  const logo = useFormImage(record.logo);
  const [lowStockThreshold, setLowStockThreshold] = useState(String(record.lowStockThreshold));
  const setSiteSettings = useSetAtom(siteSettingsAtom);
  const id = useId();

  const { busy: saving, submit: save } = useFormSubmit(async () => {
    const body: UpdateSiteSettingsRequest = {
      id: record._id,
      siteName: siteName.trim(),
      currency: currency.trim(),
      logo: logo.url,
      lowStockThreshold: Number(lowStockThreshold),
    };
    const updated = await apiFetch<SiteSettings>(`${DATA_API}/update-data`, { method: 'PUT', body });
    showToast('success', 'Website data updated successfully');
    // The shared settings state is what the top bar and every price read
    // (docs/product/screens.md, "Website update").
    setSiteSettings(siteSettingsFromRecords([updated]));
    onSaved(updated);
  });

  return (
    <form className={shared['form']} onSubmit={save} aria-label="Website settings">
      <InputField
        id={`${id}-name`}
        label="Site Name"
        required
        maxLength={SITE_SETTINGS_LIMITS.siteName}
        value={siteName}
        onChange={setSiteName}
      />
      <InputField
        id={`${id}-currency`}
        label="Currency"
        hint="The symbol shown before every price, e.g. $ or €."
        required
        maxLength={SITE_SETTINGS_LIMITS.currency}
        value={currency}
        onChange={setCurrency}
      />
      <InputField
        id={`${id}-low-stock`}
        label="Low stock threshold"
        hint="A product with this many units or fewer is low on stock, unless it has a threshold of its own."
        type="number"
        inputMode="numeric"
        required
        min={0}
        max={SITE_SETTINGS_LIMITS.lowStockThreshold}
        step={1}
        value={lowStockThreshold}
        onChange={setLowStockThreshold}
      />
      <ImageUploadField label="Logo" image={logo} previewAlt="Site logo" disabled={saving} />
      <Button type="submit" disabled={saving || logo.uploading}>
        {saving ? 'Updating...' : 'Update'}
      </Button>
    </form>
  );
}
