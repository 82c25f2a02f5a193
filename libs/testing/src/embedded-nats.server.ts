import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ExitInfo, startManagedProcess } from './managed-process.js';
import type { RunningServer } from './running-server.js';
import { ensureToolsInstalled, toolPaths } from './tool-paths.js';

export interface EmbeddedNatsOptions {
  /** Client port; absent lets the server pick a free one. */
  port?: number;
  /** JetStream storage folder; absent means a fresh temporary folder, removed on stop. */
  storeDir?: string;
  /** HTTP monitoring port; absent means no monitoring endpoint. */
  monitorPort?: number;
}

export type EmbeddedNats = RunningServer & { port: number; pid: number; exited: Promise<ExitInfo> };

/** Starts a local nats-server with JetStream and resolves once it accepts clients. */
export async function startEmbeddedNats(options: EmbeddedNatsOptions = {}): Promise<EmbeddedNats> {
  ensureToolsInstalled();
  const ownStore = options.storeDir === undefined;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'shop-nats-'));
  const removeOwnStore = (): void => {
    if (ownStore) rmSync(storeDir, { recursive: true, force: true });
  };
  const args = [
    '-js',
    '-sd',
    storeDir,
    '-a',
    '127.0.0.1',
    // -1 asks nats-server for a random free port, which it then logs.
    '-p',
    String(options.port ?? -1),
    ...(options.monitorPort !== undefined ? ['-m', String(options.monitorPort)] : []),
  ];
  let port: number | undefined;
  try {
    const { process: child, ready: readyPort } = await startManagedProcess({
      name: 'embedded NATS (nats-server)',
      command: toolPaths().natsServer,
      args,
      readyWhen: (line) => {
        const listening = /Listening for client connections on .*:(\d+)\s*$/.exec(line);
        if (listening) port = Number(listening[1]);
        return /Server is ready/.test(line) && port !== undefined ? port : undefined;
      },
      timeoutMs: 20_000,
    });
    return {
      url: `nats://127.0.0.1:${readyPort}`,
      port: readyPort,
      pid: child.pid,
      exited: child.exited,
      stop: async () => {
        await child.stop();
        removeOwnStore();
      },
    };
  } catch (error) {
    removeOwnStore();
    throw error;
  }
}
