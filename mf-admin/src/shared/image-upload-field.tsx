import { MEDIA_ACCEPTED_TYPES } from '@shop/contracts';
import { UploadProgress, useImageUpload } from '@shop/ui';
import { useId, useState, type ChangeEvent } from 'react';
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
  /** The form's image: shown as the preview, replaced once a chosen file is uploaded (the form saves it later). */
  image: FormImage;
  /** Names the preview, e.g. 'bitcoin QR code'. */
  previewAlt: string;
  disabled?: boolean;
}

/** The image a form saves ('' for none), and whether a new one is uploading: the form does not save meanwhile. */
export interface FormImage {
  url: string;
  uploading: boolean;
  set: (url: string) => void;
  setUploading: (uploading: boolean) => void;
}

/** A form's image, starting from the saved one. */
export function useFormImage(saved: string): FormImage {
  const [url, set] = useState(saved);
  const [uploading, setUploading] = useState(false);
  return { url, uploading, set, setUploading };
}

/** One image replaced by upload: preview, file chooser, progress, and the server's reason on failure. */
export function ImageUploadField({ label, image, previewAlt, disabled }: ImageUploadFieldProps) {
  const { state, upload } = useImageUpload();
  const id = useId();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    image.setUploading(true);
    const uploaded = await upload(file);
    image.setUploading(false);
    if (uploaded) {
      image.set(uploaded);
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
        {image.url ? (
          <img src={image.url} alt={previewAlt} width={96} height={96} className={styles['preview']} />
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
