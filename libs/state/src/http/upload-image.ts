import { MEDIA_UPLOAD_FIELD, type UploadImageResponse } from '@shop/contracts';
import { shopStore } from '../store/shop-store';
import { userInfoAtom } from '../user/user-info.atoms';
import { ApiError } from './api-error';
import { NO_ANSWER, endsSession, genericFailure, parseJson, serverMessage } from './api-fetch';
import { endSession } from './shop-api-fetch';
import { newTraceparent, TRACEPARENT_HEADER } from './traceparent';

export interface UploadOptions {
  /** Called with whole percentages, 0 to 100, as the bytes leave the browser. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** The media service's answer, checked: a URL on this site. */
function uploadedUrl(body: unknown): string | undefined {
  const url = (body as Partial<UploadImageResponse> | undefined)?.url;
  return typeof url === 'string' && url.startsWith('/') ? url : undefined;
}

/**
 * Uploads one image to `POST /api/media` as the signed-in user and answers its URL. Progress comes from
 * XMLHttpRequest (fetch reports no upload progress); a refusal rejects with the server's message
 * (too large, not an image, too many uploads) as an `ApiError`.
 */
export function uploadImage(file: Blob, options: UploadOptions = {}): Promise<UploadImageResponse> {
  return new Promise((resolve, reject) => {
    const url = '/api/media';
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('Accept', 'application/json');
    const token = shopStore.get(userInfoAtom)?.token;
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader(TRACEPARENT_HEADER, newTraceparent());

    let lastPercent = -1;
    const report = (percent: number) => {
      if (percent === lastPercent) return;
      lastPercent = percent;
      options.onProgress?.(percent);
    };
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) report(Math.floor((event.loaded / event.total) * 100));
    });

    request.addEventListener('load', () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        const uploaded = uploadedUrl(body);
        if (uploaded) {
          report(100);
          resolve({ url: uploaded });
        } else
          reject(
            new ApiError('The server sent an unexpected answer. Please try again later.', request.status),
          );
        return;
      }
      if (endsSession(url, request.status)) endSession();
      reject(new ApiError(serverMessage(body) ?? genericFailure(request.status), request.status));
    });
    request.addEventListener('error', () => reject(new ApiError(NO_ANSWER, 0)));
    request.addEventListener('abort', () =>
      reject(new DOMException('The upload was cancelled', 'AbortError')),
    );

    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException('The upload was cancelled', 'AbortError'));
        return;
      }
      options.signal.addEventListener('abort', () => request.abort(), { once: true });
    }

    const form = new FormData();
    form.append(MEDIA_UPLOAD_FIELD, file, file instanceof File ? file.name : 'image');
    report(0);
    request.send(form);
  });
}
