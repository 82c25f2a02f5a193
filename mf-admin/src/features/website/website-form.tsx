import {
  DATA_API,
  SITE_SETTINGS_LIMITS,
  type SiteSettings,
  type UpdateSiteSettingsRequest,
} from '@shop/contracts';
import { apiFetch, siteSettingsAtom, siteSettingsFromRecords } from '@shop/state';
import { Button, errorMessage } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import shared from '../../shared/admin.module.css';
import { ImageUploadField } from '../../shared/image-upload-field';

/** Site Name, Currency and Logo of one settings record; a save shows in the top bar at once. */
export function WebsiteForm({
  record,
  onSaved,
}: {
  record: SiteSettings;
  onSaved: (record: SiteSettings) => void;
}) {
  const [siteName, setSiteName] = useState(record.siteName);
  const [currency, setCurrency] = useState(record.currency);
  const [logo, setLogo] = useState(record.logo);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const setSiteSettings = useSetAtom(siteSettingsAtom);
  const id = useId();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const body: UpdateSiteSettingsRequest = {
        id: record._id,
        siteName: siteName.trim(),
        currency: currency.trim(),
        logo,
      };
      const updated = await apiFetch<SiteSettings>(`${DATA_API}/update-data`, { method: 'PUT', body });
      toast.success('Website data updated successfully');
      // The shared settings state is what the top bar and every price read (spec §4).
      setSiteSettings(siteSettingsFromRecords([updated]));
      onSaved(updated);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className={shared['form']} onSubmit={save} aria-label="Website settings">
      <div className={shared['field']}>
        <label htmlFor={`${id}-name`} className={shared['label']}>
          Site Name
        </label>
        <input
          id={`${id}-name`}
          className={shared['input']}
          required
          maxLength={SITE_SETTINGS_LIMITS.siteName}
          value={siteName}
          onChange={(event) => setSiteName(event.target.value)}
        />
      </div>
      <div className={shared['field']}>
        <label htmlFor={`${id}-currency`} className={shared['label']}>
          Currency
        </label>
        <input
          id={`${id}-currency`}
          className={shared['input']}
          required
          maxLength={SITE_SETTINGS_LIMITS.currency}
          aria-describedby={`${id}-currency-hint`}
          value={currency}
          onChange={(event) => setCurrency(event.target.value)}
        />
        <p id={`${id}-currency-hint`} className={shared['hint']}>
          The symbol shown before every price, e.g. $ or €.
        </p>
      </div>
      <ImageUploadField
        label="Logo"
        url={logo}
        previewAlt="Site logo"
        onUploaded={setLogo}
        onUploadingChange={setUploading}
        disabled={saving}
      />
      <Button type="submit" disabled={saving || uploading}>
        {saving ? 'Updating...' : 'Update'}
      </Button>
    </form>
  );
}
