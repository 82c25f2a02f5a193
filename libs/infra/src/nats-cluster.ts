import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type EmbeddedNats, type EmbeddedNatsOptions, startEmbeddedNats } from './embedded-nats.js';
import { freePort } from './free-port.js';
import { startOnScratchDir } from './scratch-dir.js';

/** One node of a planned cluster: everything needed to start it, and to start it again the same. */
export type NatsNodePlan = EmbeddedNatsOptions &
  Required<Pick<EmbeddedNatsOptions, 'port' | 'monitorPort' | 'storeDir' | 'cluster'>>;

export interface NatsClusterPlan {
  nodes: NatsNodePlan[];
  /** Every node's client URL, comma-separated: what a service's NATS_URL takes. */
  url: string;
}

/**
 * Ports, store folders and routes of an `size`-node nats-server cluster on this machine (JetStream on
 * every node, each with its own store under `storeDir`). Ports are fixed here so that a node restarted
 * by a supervisor comes back where its clients and its peers look for it.
 */
export async function planNatsCluster(options: {
  size: number;
  storeDir: string;
  logDir?: string;
  name?: string;
}): Promise<NatsClusterPlan> {
  if (!Number.isInteger(options.size) || options.size < 1) {
    throw new Error(`a NATS cluster needs 1 node or more, not ${options.size}`);
  }
  const routePorts: number[] = [];
  for (let index = 0; index < options.size; index += 1) routePorts.push(await freePort());
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`);
  const nodes: NatsNodePlan[] = [];
  for (let index = 0; index < options.size; index += 1) {
    const serverName = `nats-${index + 1}`;
    const storeDir = join(options.storeDir, serverName);
    mkdirSync(storeDir, { recursive: true });
    nodes.push({
      port: await freePort(),
      monitorPort: await freePort(),
      storeDir,
      logFile: options.logDir ? join(options.logDir, `${serverName}.log`) : undefined,
      cluster: { name: options.name ?? 'shop', serverName, port: routePorts[index]!, routes },
    });
  }
  return { nodes, url: nodes.map((node) => `nats://127.0.0.1:${node.port}`).join(',') };
}

/**
 * Waits until every node's monitor says JetStream is current (`/healthz`: a meta leader is elected and
 * the node has caught up), so a stream with one replica per node can be created at once.
 */
export async function waitForNatsCluster(plan: NatsClusterPlan, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const node of plan.nodes) {
    for (;;) {
      const healthy = await fetch(`http://127.0.0.1:${node.monitorPort}/healthz`, {
        signal: AbortSignal.timeout(2_000),
      })
        .then(async (response) => {
          await response.body?.cancel();
          return response.ok;
        })
        .catch(() => false);
      if (healthy) break;
      if (Date.now() > deadline) {
        throw new Error(`NATS node ${node.cluster.serverName} was not healthy within ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export interface NatsCluster {
  /** Every node's client URL, comma-separated (NATS_URL). */
  url: string;
  nodes: EmbeddedNats[];
  stop(): Promise<void>;
}

/** Starts a planned cluster's nodes side by side and resolves once JetStream is current on every one. */
export async function startNatsCluster(plan: NatsClusterPlan): Promise<NatsCluster> {
  const started = await Promise.allSettled(plan.nodes.map((node) => startEmbeddedNats(node)));
  const nodes = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    await waitForNatsCluster(plan);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: plan.url, nodes, stop };
}

/**
 * A `size`-node cluster on stores in a new temporary folder (its name starting with `prefix`), as a
 * test starts one: `stop` stops the nodes and removes the folder, as does a failed start.
 */
export function startScratchNatsCluster(size: number, prefix = 'nats-cluster-'): Promise<NatsCluster> {
  return startOnScratchDir(prefix, async (storeDir) =>
    startNatsCluster(await planNatsCluster({ size, storeDir })),
  );
}
