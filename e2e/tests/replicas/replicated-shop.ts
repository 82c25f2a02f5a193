import { test as base, expect } from '@playwright/test';
import type { Product, UserInfo } from '@shop/contracts';
import { type RunningStack, startStack } from '@shop/dev-stack';
import { connect, type NatsConnection } from 'nats';
import {
  CATALOG_CACHE_ENV,
  CATALOG_CACHE_MAX_AGE_MS,
  SEEDED_ADMIN,
  signInThroughApi,
  signUpThroughApi,
} from '../fixtures';
import { jsonLinesSince } from '../support/logs';
import { SHORTENED_RECOVERY_ENV, api } from '../support/orders';
import { copiesOf, counterOn } from '../support/replicas';

/**
 * Replicas and a NATS cluster on one machine, as `SHOP_REPLICAS=products=2,orders=2 SHOP_NATS_CLUSTER=3 npm
 * start` runs them (docs/scaling.md; docs/reliability.md, "With replicas and a NATS cluster"): two copies of
 * products and of orders behind the gateway, each on its own port, and three clustered nats-server nodes
 * whose URLs every service is given, every part supervised (restarted when it dies) as npm start does.
 *
 * One stack for the whole `replicas` project (playwright.config.ts): a worker fixture, started for its first
 * test and stopped after its last, apart from the shop the other specs share. Its recovery windows are
 * shortened as faults.spec.ts's are (SHORTENED_RECOVERY_ENV: an interrupted checkout is given back after
 * 15 s, not 60 s) to keep the suite's time.
 */
export interface ReplicatedShop {
  stack: RunningStack;
  /** The runner's console (what died, what is ready again), with when each line was written. */
  lines: { at: number; text: string }[];
  admin: UserInfo;
  /** Four signed-up shoppers, for the races. */
  shoppers: UserInfo[];
  nats: NatsConnection;
  /** A product of the test's own, listed by the admin through the gateway. */
  listProduct(name: string, countInStock: number): Promise<Product>;
  /** A counter on every copy of a service, in the order of `copiesOf`. */
  countersOf(service: string, name: string): Promise<number[]>;
  /**
   * How many requests the gateway sent to a copy of a service (its access line names the copy's address)
   * and answered at `sinceMs` (epoch ms) or later, for paths starting with `path`, and with `method` and
   * `status` when given. By the lines' own time, not by where the log ended: the gateway writes its lines
   * in batches up to a second late (gateway-logger.ts), so an earlier test's may still come after any mark
   * of the file. The services themselves log only the requests that failed, were refused or were slow.
   */
  completed(
    instance: string,
    sinceMs: number,
    path: string,
    filter?: { method?: string; status?: number },
  ): number;
}

export const test = base.extend<object, { replicated: ReplicatedShop }>({
  replicated: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const lines: ReplicatedShop['lines'] = [];
      const stack = await startStack({
        ports: 'free',
        replicas: { products: 2, orders: 2 },
        natsCluster: 3,
        observability: false,
        supervise: true,
        // Every shopper of the races is the one address 127.0.0.1 (fixtures.ts raises the limits the same way).
        rateLimitFactor: 50,
        serviceEnv: { ...SHORTENED_RECOVERY_ENV, ...CATALOG_CACHE_ENV },
        log: (text) => lines.push({ at: Date.now(), text }),
      });
      let nats: NatsConnection | undefined;
      try {
        const admin = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
        const shoppers = await Promise.all([1, 2, 3, 4].map(() => signUpThroughApi(stack.url)));
        const image = ((await (await fetch(`${stack.url}/api/products`)).json()) as Product[])[0]!.image[0]!;
        nats = await connect({ servers: stack.natsUrl.split(','), name: 'replicas' });
        await use({
          stack,
          lines,
          admin,
          shoppers,
          nats,
          async listProduct(name, countInStock) {
            const created = await api<Product>(`${stack.url}/api/listings/create`, {
              method: 'POST',
              token: admin.token,
              body: {
                name: `${name} ${Date.now()}`,
                slug: '',
                image: [image],
                brand: 'Test',
                category: 'Replicas',
                description: `${name}, sold through two copies of every service`,
                price: 10,
                countInStock,
              },
            });
            expect(created.status).toBe(201);
            return created.body;
          },
          countersOf: (service, name) =>
            Promise.all(copiesOf(stack, service).map((copy) => counterOn(copy, name))),
          completed: (instance, sinceMs, path, { method, status } = {}) => {
            const copy = stack.instances.find((each) => each.name === instance);
            if (!copy) throw new Error(`no copy named ${instance}`);
            return jsonLinesSince(stack.logDir, 'gateway', '"msg":"request"').filter(
              (line) =>
                Number(line['time']) >= sinceMs &&
                line['upstream'] === `${copy.service} 127.0.0.1:${copy.port}` &&
                String(line['path']).startsWith(path) &&
                (method === undefined || line['method'] === method) &&
                (status === undefined || line['status'] === status),
            ).length;
          },
        });
      } finally {
        await nats?.close();
        await stack.stop();
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
});

export { expect };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Each value of `after` less the one at its place in `before`. */
export const minus = (after: number[], before: number[]) =>
  after.map((value, index) => value - before[index]!);

/**
 * How long an admin's change may take to show on a copy of products before its catalogue cache's
 * backstop (CATALOG_CACHE_MAX_AGE_MS, set on this stack) could explain it: the answers read just before
 * the change would stay stale that long if the change's events did not drop them. Seeing the change
 * within half of it shows the invalidation worked; how fast it is (about a second) is a latency goal,
 * measured in bench/ and only annotated here.
 */
export const INVALIDATED_WITHIN_MS = CATALOG_CACHE_MAX_AGE_MS / 2;
