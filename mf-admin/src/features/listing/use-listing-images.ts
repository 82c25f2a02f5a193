import { MEDIA_MAX_BYTES, PRODUCT_LIMITS } from '@shop/contracts';
import { ApiError, uploadImage } from '@shop/state';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { LISTING_MESSAGES } from './listing-messages';

/** One image of the listing: already stored, on its way, or refused (then shown until removed). */
type ListingImage =
  | { key: string; name: string; status: 'done'; url: string }
  | { key: string; name: string; status: 'uploading'; progress: number; preview: string }
  | { key: string; name: string; status: 'failed'; message: string; reason?: string; preview: string };

const TOO_MANY_UPLOADS = 429;

let nextKey = 0;
const newKey = () => `image-${(nextKey += 1)}`;

const stored = (url: string): ListingImage => ({
  key: newKey(),
  name: decodeURIComponent(url.slice(url.lastIndexOf('/') + 1)),
  status: 'done',
  url,
});

/**
 * Why an upload failed: the shop's words (docs/product/messages.md, "Admin toasts"), with the server's reason
 * when it refused the file itself (damaged, too large, not an image), so the admin knows what to fix; a
 * throttled upload shows only the server's words, which say how long to wait.
 */
function failure(error: unknown): { message: string; reason?: string } {
  if (!(error instanceof ApiError)) return { message: LISTING_MESSAGES.uploadFailed };
  if (error.status === TOO_MANY_UPLOADS) return { message: error.message };
  const refusedFile = error.status >= 400 && error.status < 500;
  return refusedFile
    ? { message: LISTING_MESSAGES.uploadFailed, reason: error.message }
    : { message: LISTING_MESSAGES.uploadFailed };
}

/**
 * The listing's images: `add(files)` uploads each file at once with its own progress (one
 * `uploadImage` call per file, so one slow or refused file holds up none of the others); refused
 * files stay visible with the reason until removed. Leaving the screen cancels uploads in flight.
 */
export function useListingImages(initialUrls: readonly string[]) {
  const [images, setImages] = useState<ListingImage[]>(() => initialUrls.map(stored));
  const inFlight = useRef(new Map<string, AbortController>());
  const previews = useRef(new Map<string, string>());

  useEffect(() => {
    const controllers = inFlight.current;
    const urls = previews.current;
    return () => {
      controllers.forEach((controller) => controller.abort());
      urls.forEach((url) => URL.revokeObjectURL(url));
    };
  }, []);

  const update = useCallback((key: string, next: ListingImage) => {
    setImages((current) => current.map((image) => (image.key === key ? next : image)));
  }, []);

  const forgetPreview = useCallback((key: string) => {
    const preview = previews.current.get(key);
    if (preview) URL.revokeObjectURL(preview);
    previews.current.delete(key);
  }, []);

  const upload = useCallback(
    async (key: string, file: File, preview: string) => {
      const controller = new AbortController();
      inFlight.current.set(key, controller);
      try {
        const { url } = await uploadImage(file, {
          signal: controller.signal,
          onProgress: (progress) => {
            if (!controller.signal.aborted)
              update(key, { key, name: file.name, status: 'uploading', progress, preview });
          },
        });
        forgetPreview(key);
        update(key, { key, name: file.name, status: 'done', url });
      } catch (error) {
        if (controller.signal.aborted) return;
        const { message, reason } = failure(error);
        toast.error(message);
        update(key, { key, name: file.name, status: 'failed', message, reason, preview });
      } finally {
        inFlight.current.delete(key);
      }
    },
    [forgetPreview, update],
  );

  /**
   * Uploads the chosen files, unless the listing would then hold more than five images
   * (docs/product/rules.md, "Listings").
   */
  const add = useCallback(
    (files: readonly File[]) => {
      const kept = images.filter((image) => image.status !== 'failed').length;
      if (files.length === 0 || kept + files.length > PRODUCT_LIMITS.maxImages) {
        toast.error(LISTING_MESSAGES.tooManyImages);
        return;
      }
      const added = files.map((file): ListingImage => {
        const key = newKey();
        const preview = URL.createObjectURL(file);
        previews.current.set(key, preview);
        // Refused here rather than after sending 3 MB for nothing.
        if (file.size > MEDIA_MAX_BYTES) {
          toast.error(LISTING_MESSAGES.uploadFailed);
          return { key, name: file.name, status: 'failed', message: LISTING_MESSAGES.uploadFailed, preview };
        }
        void upload(key, file, preview);
        return { key, name: file.name, status: 'uploading', progress: 0, preview };
      });
      setImages((current) => [...current, ...added]);
    },
    [images, upload],
  );

  const remove = useCallback(
    (key: string) => {
      inFlight.current.get(key)?.abort();
      forgetPreview(key);
      setImages((current) => current.filter((image) => image.key !== key));
    },
    [forgetPreview],
  );

  const urls = images.flatMap((image) => (image.status === 'done' ? [image.url] : []));
  const uploading = images.some((image) => image.status === 'uploading');
  return { images, urls, uploading, add, remove };
}
