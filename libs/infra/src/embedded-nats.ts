import { toolPaths } from './paths.cjs';
import { type ManagedProcess, startProcess } from './process.js';
import { startOnScratchDir } from './scratch-dir.js';
import { ensureToolsInstalled } from './tools.js';

export interface EmbeddedNatsOptions {
  /** Client port; absent lets the server pick a free one. */
  port?: number;
  /** JetStream storage folder; absent means a fresh temporary folder, removed on stop. */
  storeDir?: string;
  /** HTTP monitoring port; absent means no monitoring endpoint. */
  monitorPort?: number;
  /** Also append the server's output to this file. */
  logFile?: string;
  /** Joins a cluster (see startNatsCluster): its name, this node's route port, every node's routes. */
  cluster?: { name: string; serverName: string; port: number; routes: string[] };
}

/** A running nats-server: `url` is `nats://127.0.0.1:<port>`. */
export type EmbeddedNats = ManagedProcess & { url: string; port: number };

/** Starts a local nats-server with JetStream and resolves once it accepts clients. */
export async function startEmbeddedNats(options: EmbeddedNatsOptions = {}): Promise<EmbeddedNats> {
  if (options.storeDir === undefined) {
    return startOnScratchDir('shop-nats-', (storeDir) => startEmbeddedNats({ ...options, storeDir }));
  }
  ensureToolsInstalled();
  const storeDir = options.storeDir;
  const cluster = options.cluster;
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
    ...(cluster
      ? [
          '--server_name',
          cluster.serverName,
          '--cluster_name',
          cluster.name,
          '--cluster',
          `nats://127.0.0.1:${cluster.port}`,
          '--routes',
          cluster.routes.join(','),
        ]
      : []),
  ];
  let port: number | undefined;
  const { ready: readyPort, ...server } = await startProcess({
    name: cluster ? `NATS node ${cluster.serverName}` : 'embedded NATS (nats-server)',
    command: toolPaths().natsServer,
    args,
    readyWhen: (line) => {
      const listening = /Listening for client connections on .*:(\d+)\s*$/.exec(line);
      if (listening) port = Number(listening[1]);
      return /Server is ready/.test(line) && port !== undefined ? port : undefined;
    },
    timeoutMs: 20_000,
    logFile: options.logFile,
    signalOnExit: 'SIGTERM',
  });
  return { ...server, url: `nats://127.0.0.1:${readyPort}`, port: readyPort };
}
