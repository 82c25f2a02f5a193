// `node dist-server/main.js`: the page server as its own process (its container's command).
// SHELL_DIR: the shell's build (index.html); REMOTES_URL: where remotes.json is read (the shell's static
// server, whose environment's file it is); RENDER_CATALOG_URL: the catalog's render service.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runAsProcess } from '@shop/ui/server';
import { startPageServer } from './page-server';

const shellDir = process.env['SHELL_DIR'] ?? '/usr/share/shop/shell';
const remotesUrl = process.env['REMOTES_URL'] ?? 'http://shell:4000/remotes.json';

runAsProcess(
  startPageServer({
    template: () => readFile(join(shellDir, 'index.html'), 'utf8'),
    remotesManifest: async () => {
      const response = await fetch(remotesUrl, { signal: AbortSignal.timeout(1_000) });
      if (!response.ok) throw new Error(`${remotesUrl} answered ${response.status}`);
      return response.json();
    },
    renderService: (remote) =>
      remote === 'catalog'
        ? (process.env['RENDER_CATALOG_URL'] ?? 'http://mf-catalog-render:4101')
        : undefined,
    publicOrigin: process.env['PUBLIC_URL'] || undefined,
    port: Number(process.env['PORT'] ?? '4100'),
  }),
  (server) => ({ msg: 'serving pages', url: server.url }),
);
