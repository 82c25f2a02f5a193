import { uploadImage } from '@shop/state';
import { useCallback, useEffect, useRef, useState } from 'react';

export type ImageUploadState =
  | { status: 'idle' }
  | { status: 'uploading'; progress: number }
  | { status: 'done'; url: string }
  | { status: 'failed'; message: string };

/**
 * One image upload to the media service with its progress: `upload(file)` answers the stored URL or
 * undefined (then `state` says why, in the server's words). Leaving the screen cancels it.
 */
export function useImageUpload() {
  const [state, setState] = useState<ImageUploadState>({ status: 'idle' });
  const controller = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => controller.current?.abort(), []);

  const upload = useCallback(async (file: Blob): Promise<string | undefined> => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState({ status: 'uploading', progress: 0 });
    try {
      const { url } = await uploadImage(file, {
        signal: current.signal,
        onProgress: (progress) => {
          if (!current.signal.aborted) setState({ status: 'uploading', progress });
        },
      });
      setState({ status: 'done', url });
      return url;
    } catch (error) {
      if (current.signal.aborted) return undefined;
      setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }, []);

  const reset = useCallback(() => {
    controller.current?.abort();
    setState({ status: 'idle' });
  }, []);

  return { state, upload, reset };
}
