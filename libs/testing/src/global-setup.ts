import type { TestProject } from 'vitest/node';
import type { RunningServer } from './running-server.js';
import { provideMongo, provideNats } from './test-servers.provider.js';

export type {} from './provided-context.mjs';

/**
 * Vitest global setup: one MongoDB-wire server and one NATS for the whole run, handed to tests
 * through `inject('mongoUrl')`/`inject('natsUrl')` and `TEST_MONGO_URL`/`TEST_NATS_URL`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = await Promise.allSettled([provideMongo(), provideNats()]);
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.allSettled(servers.map((server) => server.stop()));
  };
  const [mongo, nats] = started;
  if (mongo?.status !== 'fulfilled' || nats?.status !== 'fulfilled') {
    await stopAll();
    const reasons = started.flatMap((result) =>
      result.status === 'rejected' ? [String(result.reason)] : [],
    );
    throw new Error(`test servers did not start:\n${reasons.join('\n')}`);
  }
  hand(project, 'mongoUrl', 'TEST_MONGO_URL', mongo.value);
  hand(project, 'natsUrl', 'TEST_NATS_URL', nats.value);
  return stopAll;
}

function hand(
  project: TestProject,
  key: 'mongoUrl' | 'natsUrl',
  envName: string,
  server: RunningServer,
): void {
  project.provide(key, server.url);
  // Workers are forked after global setup, so they inherit this too.
  process.env[envName] = server.url;
}
