import { join } from 'node:path';
import { planNatsCluster, startEmbeddedMongo, startEmbeddedNats, waitForNatsCluster } from '@shop/infra';
import type { Parts } from './parts.js';

/** Server URLs fit for the console (one, or several comma-separated): no password. */
export function redactCredentials(serverUrls: string): string {
  return serverUrls
    .split(',')
    .map((serverUrl) => {
      const url = new URL(serverUrl);
      if (url.password) url.password = '***';
      return url.toString();
    })
    .join(',');
}

export interface InfrastructureOptions {
  parts: Parts;
  ports: { mongo: number; nats: number };
  dataDir: string;
  logDir: string;
  /** Keep the database in a file under dataDir (npm start), else in memory. */
  durable: boolean;
  /** nats-server nodes to run clustered (SHOP_NATS_CLUSTER); 1 is one plain server. */
  natsNodes: number;
  /** Servers of your own instead of the embedded ones. */
  mongoUrl?: string;
  natsUrl?: string;
  log: (line: string) => void;
}

/** The database and NATS (with JetStream) every service uses: given ones, or embedded ones started here. */
export async function startInfrastructure(
  options: InfrastructureOptions,
): Promise<{ mongoUrl: string; natsUrl: string }> {
  const { parts, ports, dataDir, logDir, log } = options;
  let mongoUrl = options.mongoUrl;
  if (!mongoUrl) {
    mongoUrl = `mongodb://127.0.0.1:${ports.mongo}`;
    await parts.keep('mongo', () =>
      startEmbeddedMongo({
        port: ports.mongo,
        dataFile: options.durable ? join(dataDir, 'mongo', 'shop.mv') : undefined,
        logFile: join(logDir, 'mongo.log'),
      }),
    );
  }
  log(`database      ${redactCredentials(mongoUrl)}`);
  let natsUrl = options.natsUrl;
  if (!natsUrl && options.natsNodes > 1) {
    natsUrl = await startNatsNodes(options);
  } else if (!natsUrl) {
    natsUrl = `nats://127.0.0.1:${ports.nats}`;
    await parts.keep('nats', () => startEmbeddedNats({ port: ports.nats, storeDir: join(dataDir, 'nats') }));
  }
  log(`nats          ${redactCredentials(natsUrl)}`);
  return { mongoUrl, natsUrl };
}

/**
 * A nats-server cluster on this machine, each node a part of its own (`nats-1`, `nats-2`, ...: supervised,
 * restarted on the same ports and store); answers every node's URL, comma-separated, for NATS_URL.
 */
async function startNatsNodes(options: InfrastructureOptions): Promise<string> {
  const plan = await planNatsCluster({
    size: options.natsNodes,
    storeDir: join(options.dataDir, 'nats-cluster'),
    logDir: options.logDir,
  });
  await Promise.all(
    plan.nodes.map((node) => options.parts.keep(node.cluster.serverName, () => startEmbeddedNats(node))),
  );
  await waitForNatsCluster(plan);
  return plan.url;
}
