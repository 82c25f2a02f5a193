import { MEDIA_ACCEPTED_TYPES } from '@shop/contracts';
import { UploadProgress, useImageUpload } from '@shop/ui';
import { useId, type ChangeEvent } from 'react';
import { toast } from 'react-toastify';
import styles from './image-upload-field.module.css';

/**
 * The toasts of a single image upload, for a wallet QR code or the site logo
 * (docs/product/messages.md, "Admin toasts").
 */
const IMAGE_UPLOAD_MESSAGES = {
  uploaded: 'Image uploaded successfully',
  failed: 'Image upload failed',
} as const;

export interface ImageUploadFieldProps {
  /** The file chooser's label, e.g. 'QR Code'. */
  label: string;
  /** The image in effect ('' for none), shown as the preview. */
  url: string;
  /** Names the preview, e.g. 'bitcoin QR code'. */
  previewAlt: string;
  /** Told the stored URL once a chosen file is uploaded; the form saves it later. */
  onUploaded: (url: string) => void;
  /** Told when an upload starts and ends, so the form does not save the old image meanwhile. */
  onUploadingChange?: (uploading: boolean) => void;
  disabled?: boolean;
}

/** One image replaced by upload: preview, file chooser, progress, and the server's reason on failure. */
export function ImageUploadField({
  label,
  url,
  previewAlt,
  onUploaded,
  onUploadingChange,
  disabled,
}: ImageUploadFieldProps) {
  const { state, upload } = useImageUpload();
  const id = useId();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    onUploadingChange?.(true);
    const uploaded = await upload(file);
    onUploadingChange?.(false);
    if (uploaded) {
      onUploaded(uploaded);
      toast.success(IMAGE_UPLOAD_MESSAGES.uploaded);
    } else {
      toast.error(IMAGE_UPLOAD_MESSAGES.failed);
    }
  };

  return (
    <div className={styles['field']}>
      <label htmlFor={id} className={styles['label']}>
        {label}
      </label>
      <div className={styles['row']}>
        {url ? (
          <img src={url} alt={previewAlt} width={96} height={96} className={styles['preview']} />
        ) : (
          <span className={styles['empty']}>No image</span>
        )}
        <input
          id={id}
          type="file"
          accept={MEDIA_ACCEPTED_TYPES.join(',')}
          className={styles['file']}
          disabled={disabled || state.status === 'uploading'}
          onChange={choose}
        />
      </div>
      {state.status === 'uploading' && (
        <UploadProgress value={state.progress} label={`Upload of the ${label}`} />
      )}
      {state.status === 'failed' && (
        <p role="alert" className={styles['failed']}>
          {IMAGE_UPLOAD_MESSAGES.failed}: {state.message}
        </p>
      )}
    </div>
  );
}
