import { join } from 'node:path';
import { startEmbeddedMongo, startEmbeddedNats } from '@shop/infra';
import type { Parts } from './parts.js';

/** A URL fit for the console: no password. */
export function redactCredentials(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (url.password) url.password = '***';
  return url.toString();
}

export interface InfrastructureOptions {
  parts: Parts;
  ports: { mongo: number; nats: number };
  dataDir: string;
  logDir: string;
  /** Keep the database in a file under dataDir (npm start), else in memory. */
  durable: boolean;
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
  if (!natsUrl) {
    natsUrl = `nats://127.0.0.1:${ports.nats}`;
    await parts.keep('nats', () => startEmbeddedNats({ port: ports.nats, storeDir: join(dataDir, 'nats') }));
  }
  log(`nats          ${redactCredentials(natsUrl)}`);
  return { mongoUrl, natsUrl };
}
