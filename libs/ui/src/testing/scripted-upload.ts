import { beforeEach, vi } from 'vitest';

/**
 * A stand-in for the browser's XMLHttpRequest (which `uploadImage` uses for its progress): each
 * upload waits for the test to report progress and answer, so per-file progress can be seen.
 */
export class ScriptedUpload extends EventTarget {
  static all: ScriptedUpload[] = [];
  readonly upload = new EventTarget();
  body: FormData | undefined;
  status = 0;
  responseText = '';

  constructor() {
    super();
    ScriptedUpload.all.push(this);
  }

  open() {}
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }

  get fileName(): string {
    return (this.body?.get('file') as File | null)?.name ?? '';
  }

  progress(percent: number) {
    this.upload.dispatchEvent(
      Object.assign(new Event('progress'), { lengthComputable: true, loaded: percent, total: 100 }),
    );
  }

  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }

  /** Installs the stand-in; answers the uploads made so far, oldest first. */
  static install(): ScriptedUpload[] {
    ScriptedUpload.all.length = 0;
    vi.stubGlobal('XMLHttpRequest', ScriptedUpload);
    // jsdom has no object URLs: the previews of chosen files need them.
    URL.createObjectURL = vi.fn((blob: Blob) => `blob:preview/${blob instanceof File ? blob.name : 'blob'}`);
    URL.revokeObjectURL = vi.fn();
    return ScriptedUpload.all;
  }

  /** In a suite whose screens upload: installs the stand-in before each test; answers that test's uploads. */
  static forEachTest(): readonly ScriptedUpload[] {
    beforeEach(() => {
      ScriptedUpload.install();
    });
    return ScriptedUpload.all;
  }
}

/** A media URL as `POST /api/media` answers it. */
export const mediaUrl = (name: string, id = '0123456789abcdef01234567') => `/api/media/${id}/${name}`;

/** A small image file for a file chooser. */
export const imageFile = (name: string, bytes = 10) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });
