// `node dist-server/main.js`: the render service as its own process (its container's command).
import { runAsProcess } from '@shop/ui/server';
import { RENDER_VERSION, startRenderServer } from './render-server';

const port = Number(process.env['PORT'] ?? '4101');
const apiUrl = process.env['API_URL'] ?? 'http://gateway:8000';

runAsProcess(startRenderServer({ apiUrl, port }), (server) => ({
  msg: 'rendering',
  version: RENDER_VERSION,
  url: server.url,
  apiUrl,
}));
