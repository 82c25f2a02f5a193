// `node dist-server/main.js`: the render service as its own process (its container's command).
import { startRenderServer } from './render-server';

const port = Number(process.env['PORT'] ?? '4101');
const apiUrl = process.env['API_URL'] ?? 'http://gateway:8000';

startRenderServer({ apiUrl, port }).then(
  (server) => {
    process.stdout.write(
      `${JSON.stringify({ msg: 'rendering', version: server.version, url: server.url, apiUrl })}\n`,
    );
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
