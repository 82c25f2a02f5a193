/// <reference types="node" />
// What the front-ends' servers share (docs/decisions/0020): the catalog's render service and the shell's
// page server. Node only: @shop/ui/server, never imported by browser code.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';

/** The longest one render may take before it is given up. */
const RENDER_TIMEOUT_MS = 5_000;

/**
 * The HTML React renders for this tree once everything in it has rendered. `onError` sees each error React
 * reports and may answer a digest for the browser; `strict` rejects on any (a boundary that fell back).
 */
export function renderToHtml(
  tree: ReactNode,
  options: { strict?: boolean; onError?: (error: unknown) => string | undefined; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks).toString('utf8'));
        done();
      },
    });
    let failure: unknown;
    const stream = renderToPipeableStream(tree, {
      onAllReady: () => {
        if (options.strict && failure !== undefined) reject(failure);
        else stream.pipe(sink);
      },
      onShellError: reject,
      onError: (error) => {
        failure ??= error;
        return options.onError?.(error);
      },
    });
    setTimeout(
      () => stream.abort(new Error('The render took too long')),
      options.timeoutMs ?? RENDER_TIMEOUT_MS,
    ).unref();
  });
}

/**
 * Streams what React renders for this tree to `write`: the shell (everything outside a suspended part) as
 * soon as it is ready, then each suspended part as it completes, with the inline scripts that put it in
 * place, which carry `nonce`. Resolves once all is written; rejects if the shell itself fails. `onError` as
 * for {@link renderToHtml}.
 */
export function streamHtml(
  tree: ReactNode,
  write: (html: string) => void,
  options: { nonce: string; onError?: (error: unknown) => string | undefined; timeoutMs?: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    // A chunk may end inside a character of several bytes: decoded as a stream, never chunk by chunk.
    const decoder = new StringDecoder('utf8');
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        write(typeof chunk === 'string' ? chunk : decoder.write(chunk));
        done();
      },
      final(done) {
        const rest = decoder.end();
        if (rest) write(rest);
        resolve();
        done();
      },
    });
    const stream = renderToPipeableStream(tree, {
      nonce: options.nonce,
      onShellReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => options.onError?.(error),
    });
    setTimeout(
      () => stream.abort(new Error('The render took too long')),
      options.timeoutMs ?? RENDER_TIMEOUT_MS,
    ).unref();
  });
}

// Hoisted elements React writes before the rest of a render (React 19 hoists <title>, <meta>, <link>).
const LEADING_HEAD = /^(?:<title>[\s\S]*?<\/title>|<meta\b[^>]*>|<link\b[^>]*>)*/;

/** A render's hoisted head elements (for the page's head), and the rest. */
export function splitHead(html: string): { head: string; body: string } {
  const head = LEADING_HEAD.exec(html)?.[0] ?? '';
  return { head, body: html.slice(head.length) };
}

export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** An HTTP server for `handle` on `port` (0: a free one); a handler that throws answers `failure`. */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  options: { port: number; host: string; failure: string },
): Promise<RunningServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ message: options.failure }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Runs a server as the process's one job (a container's command): logs `started`, stops on SIGTERM/SIGINT. */
export function runAsProcess(
  start: Promise<RunningServer>,
  started: (server: RunningServer) => object,
): void {
  start.then(
    (server) => {
      process.stdout.write(`${JSON.stringify(started(server))}\n`);
      const stop = () =>
        void server.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
