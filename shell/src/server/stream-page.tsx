// A catalogue page whose remote is slower than its layout (docs/rendering.md, "A slow part"): the page server
// sends the layout at once, the screen's place showing it is loading, and the remote's render into that place
// when it comes, in the same answer (React's streaming: the part arrives with an inline script, of this
// answer's nonce, that puts it in place). A remote that does not come in time leaves its place to the browser.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReactElement } from 'react';
import { randomBytes, randomUUID } from 'node:crypto';
import { createBrotliCompress, createGzip, constants as zlibConstants } from 'node:zlib';
import { SITE_SETTINGS_API } from '@shop/contracts';
import type { ServerAnswer } from '@shop/state/first-screen';
import { splitHead, streamHtml } from '@shop/ui/server';
import type { RemoteName } from '../federation/remotes-manifest';
import { firstScreenDataBlock, framePage, lateHead, type RemoteFragment } from './compose-page';

/**
 * Writes `html` on with the one `marker` in it replaced by `replacement()`, wherever the chunks' boundaries
 * fall: the end of a chunk that could be the marker's beginning is held back until the next chunk shows.
 */
export function markerReplacer(marker: string, replacement: () => string, write: (html: string) => void) {
  let held = '';
  let replaced = false;
  return {
    write(chunk: string) {
      let text = held + chunk;
      held = '';
      if (!replaced) {
        const at = text.indexOf(marker);
        if (at >= 0) {
          text = `${text.slice(0, at)}${replacement()}${text.slice(at + marker.length)}`;
          replaced = true;
        } else {
          for (let keep = Math.min(marker.length - 1, text.length); keep > 0; keep -= 1) {
            if (!marker.startsWith(text.slice(text.length - keep))) continue;
            held = text.slice(text.length - keep);
            text = text.slice(0, text.length - keep);
            break;
          }
        }
      }
      if (text) write(text);
    },
    end() {
      if (held) write(held);
      held = '';
    },
  };
}

/** The answer's body, compressed as the browser accepts it and flushed after each part, so each arrives as sent. */
function streamedBody(res: ServerResponse, acceptEncoding: string | undefined) {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  const compressor = /\bbr\b/.test(accepted)
    ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
    : /\bgzip\b/.test(accepted)
      ? createGzip({ level: 6 })
      : undefined;
  compressor?.pipe(res);
  let flushing = false;
  return {
    encoding: compressor ? (/\bbr\b/.test(accepted) ? 'br' : 'gzip') : undefined,
    write(text: string) {
      if (!compressor) {
        res.write(text);
        return;
      }
      compressor.write(text);
      // One flush per burst of writes (React writes a part in several chunks at once).
      if (flushing) return;
      flushing = true;
      setImmediate(() => {
        flushing = false;
        compressor.flush();
      });
    },
    end: () => (compressor ? compressor.end() : res.end()),
  };
}

export interface StreamedPage {
  template: string;
  path: string;
  origin: string;
  remote: RemoteName;
  /** The remote's version remotes.json names: the page is drawn, and taken over, with it. */
  version: string | undefined;
  /** The site settings the layout is drawn with: those of the last screen the remote rendered. */
  settings: ServerAnswer;
  /** The remote's render of the screen, when (and if) it comes. */
  fragment: Promise<RemoteFragment | undefined>;
  /** The storefront as the page server renders it, with `marker` in the screen's place. */
  storefront: (answers: Record<string, ServerAnswer>, marker: Promise<string | null>) => ReactElement;
  /** The answer's headers but for its type and encoding, for a page whose inline scripts carry `nonce`. */
  headers: (nonce: string) => Record<string, string>;
  onError: (error: unknown) => string | undefined;
}

/**
 * Sends the page as it renders: its frame and layout now, the remote's screen when it comes. Always `200`:
 * the screen's status (a product not found) is not known when the answer starts; the screen's head, with
 * its `noindex`, is moved into the page's head by script (lateHead).
 */
export async function streamPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: StreamedPage,
): Promise<void> {
  const nonce = randomBytes(16).toString('base64');
  const marker = `shop-fragment-${randomUUID()}`;
  let fragment: RemoteFragment | undefined;
  const placed = page.fragment.then((arrived) => {
    fragment = arrived;
    return arrived ? marker : null;
  });
  const layoutAnswers = { [SITE_SETTINGS_API]: page.settings };
  const frame = framePage(page.template, {
    head: '',
    remotes: page.version === undefined ? {} : { [page.remote]: page.version },
  });
  const body = streamedBody(res, req.headers['accept-encoding']);
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    ...(body.encoding ? { 'Content-Encoding': body.encoding } : {}),
    ...page.headers(nonce),
    // nginx in front (the shell's, Kong's) passes each part on as it comes instead of buffering the page.
    'X-Accel-Buffering': 'no',
  });
  body.write(frame.before);
  // What React hoists (a <title> or <meta> of the layout) comes first in its output: it belongs in the head.
  let hoisted: string | undefined;
  const replacer = markerReplacer(marker, () => fragment?.html ?? '', body.write);
  await streamHtml(
    page.storefront(layoutAnswers, placed),
    (html) => {
      if (hoisted === undefined) {
        const split = splitHead(html);
        hoisted = split.head;
        replacer.write(split.body);
      } else replacer.write(html);
    },
    { nonce, onError: page.onError },
  );
  replacer.end();
  // The layout was drawn with these settings: the page hydrates with them, the screen's other answers beside.
  const answers = { ...fragment?.answers, ...layoutAnswers };
  const remotes = fragment ? { [page.remote]: fragment.version } : {};
  const data = firstScreenDataBlock({ answers, origin: page.origin, remotes });
  body.write(frame.after(`${data}${lateHead(`${fragment?.head ?? ''}${hoisted ?? ''}`, nonce)}`));
  body.end();
}
