import {
  dockerMayBeAvailable,
  startMongoContainer,
  startNatsContainer,
} from './docker-containers.provider.js';
import { startEmbeddedMongo, startEmbeddedNats } from '@shop/infra';
import type { RunningServer } from './running-server.js';

async function provide(
  what: string,
  givenUrl: string | undefined,
  inContainer: () => Promise<RunningServer>,
  embedded: () => Promise<RunningServer>,
): Promise<RunningServer> {
  if (givenUrl) return { url: givenUrl, stop: async () => undefined };
  if (dockerMayBeAvailable()) {
    try {
      return await inContainer();
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      console.warn(`[@shop/testing] ${what} in Docker failed (${reason}); using the embedded server`);
    }
  }
  return embedded();
}

/** A MongoDB-wire server for tests: MONGO_URL if set, else a Docker container, else the embedded one in memory. */
export function provideMongo(): Promise<RunningServer> {
  return provide('MongoDB', process.env['MONGO_URL'], startMongoContainer, () => startEmbeddedMongo());
}

/** A NATS server with JetStream for tests: NATS_URL if set, else a Docker container, else the embedded one. */
export function provideNats(): Promise<RunningServer> {
  return provide('NATS', process.env['NATS_URL'], startNatsContainer, () => startEmbeddedNats());
}
