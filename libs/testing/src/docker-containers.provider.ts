import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConnectionString } from 'mongodb-connection-string-url';
import type { RunningServer } from './running-server.js';
import { toolVersions } from '@shop/infra';

/**
 * A cheap guess whether a Docker engine may answer; testcontainers then decides for real.
 * `SHOP_TEST_DOCKER=0` forces the embedded servers even when Docker is there.
 */
export function dockerMayBeAvailable(): boolean {
  if (process.env['SHOP_TEST_DOCKER'] === '0') return false;
  if (process.env['DOCKER_HOST']) return true;
  const sockets = ['/var/run/docker.sock', join(homedir(), '.docker', 'run', 'docker.sock')];
  const runtimeDir = process.env['XDG_RUNTIME_DIR'];
  if (runtimeDir) sockets.push(join(runtimeDir, 'docker.sock'));
  return sockets.some((socket) => existsSync(socket));
}

/** MongoDB in a container (a one-node replica set, like production). */
export async function startMongoContainer(): Promise<RunningServer> {
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer(toolVersions().images.mongo).start();
  const url = new ConnectionString(container.getConnectionString());
  // The replica set advertises the container's own host name, which the host cannot resolve.
  url.searchParams.set('directConnection', 'true');
  return { url: url.toString(), stop: async () => void (await container.stop()) };
}

/** nats-server with JetStream in a container, without credentials (like the embedded one). */
export async function startNatsContainer(): Promise<RunningServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(toolVersions().images.nats)
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  return {
    url: `nats://${container.getHost()}:${container.getMappedPort(4222)}`,
    stop: async () => void (await container.stop()),
  };
}
