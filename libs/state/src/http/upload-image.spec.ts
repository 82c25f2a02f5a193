import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { shopStore } from '../store/shop-store';
import { userInfoAtom } from '../user/user-info.atoms';
import { onSessionEnded } from './shop-api-fetch';
import { uploadImage } from './upload-image';

/**
 * A stand-in for the browser's XMLHttpRequest that records what was sent and lets the test play the
 * upload's events; the real round trip to the media service is covered by the browser tests.
 */
class ScriptedRequest extends EventTarget {
  static last: ScriptedRequest | undefined;
  readonly upload = new EventTarget();
  readonly headers = new Map<string, string>();
  method = '';
  url = '';
  body: unknown;
  status = 0;
  responseText = '';

  constructor() {
    super();
    ScriptedRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(
      Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }),
    );
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }
}

const sent = () => ScriptedRequest.last!;
const image = () => new File([new Uint8Array([137, 80, 78, 71])], 'receipt.png', { type: 'image/png' });

describe('uploadImage', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', ScriptedRequest);
    shopStore.set(userInfoAtom, { _id: 'u1', name: 'Ann', email: 'a@x.io', isAdmin: false, token: 'tok' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    shopStore.set(userInfoAtom, null);
  });

  it('posts the file as the multipart field "file" with the bearer token and reports whole percentages', async () => {
    const progress: number[] = [];
    const done = uploadImage(image(), { onProgress: (percent) => progress.push(percent) });
    expect(sent().method).toBe('POST');
    expect(sent().url).toBe('/api/media');
    expect(sent().headers.get('Authorization')).toBe('Bearer tok');
    expect(sent().headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect((sent().body as FormData).get('file')).toBeInstanceOf(File);

    sent().progress(250, 1000);
    sent().progress(251, 1000);
    sent().progress(1000, 1000);
    sent().answer(201, { url: '/api/media/0123456789abcdef01234567/1-receipt.png' });

    await expect(done).resolves.toEqual({ url: '/api/media/0123456789abcdef01234567/1-receipt.png' });
    expect(progress).toEqual([0, 25, 100]);
  });

  it("rejects with the server's refusal message and status", async () => {
    const done = uploadImage(image());
    sent().answer(413, { message: 'Image too large (3 MB max)' });
    await expect(done).rejects.toMatchObject({ message: 'Image too large (3 MB max)', status: 413 });
  });

  it('rejects an answer without a site URL', async () => {
    const done = uploadImage(image());
    sent().answer(201, { url: 'https://elsewhere.example/x.png' });
    await expect(done).rejects.toMatchObject({ status: 201 });
  });

  it('signs the user out and sends them to sign-in, back here afterwards, when the session ended', async () => {
    window.history.pushState(null, '', '/order/abc?x=1');
    const sentTo: string[] = [];
    const stopListening = onSessionEnded((url) => sentTo.push(url));
    try {
      const done = uploadImage(image());
      sent().answer(401, { message: 'Please sign in' });
      await expect(done).rejects.toMatchObject({ status: 401 });
      expect(shopStore.get(userInfoAtom)).toBeNull();
      expect(sentTo).toEqual(['/signin?redirect=%2Forder%2Fabc%3Fx%3D1']);
    } finally {
      stopListening();
    }
  });

  it('rejects as cancelled when its signal is aborted', async () => {
    const controller = new AbortController();
    const done = uploadImage(image(), { signal: controller.signal });
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
