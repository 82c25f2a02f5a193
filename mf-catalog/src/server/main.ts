// `node dist-server/main.js`: the render service as its own process (its container's command).
import { runAsProcess } from '@shop/ui/server';
import { RENDER_VERSION, startRenderServer } from './render-server';

const port = Number(process.env['PORT'] ?? '4101');
const apiUrl = process.env['API_URL'] ?? 'http://gateway:8000';
// Without NATS_URL every request renders: the cache needs the catalogue's changes to stay true.
const natsUrl = process.env['NATS_URL'] || undefined;

// How long a rendered screen is served as it is when no change dropped it (render-cache.ts's default).
const freshForMs = Number(process.env['RENDER_CACHE_FRESH_MS']) || undefined;

runAsProcess(startRenderServer({ apiUrl, port, natsUrl, cache: { freshForMs } }), (server) => ({
  msg: 'rendering',
  version: RENDER_VERSION,
  url: server.url,
  apiUrl,
  cache: natsUrl ? 'kept until the catalogue changes' : 'off (no NATS_URL)',
}));
