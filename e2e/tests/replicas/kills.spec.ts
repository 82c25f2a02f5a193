import { type UserInfo } from '@shop/contracts';
import { signUpThroughApi } from '../fixtures';
import { jsonLinesSince, markLogs } from '../support/logs';
import {
  type Attempt,
  expectAnswersTrueToWhatIsStored,
  placeOrder,
  releasedOrphans,
  shopPastRecovery,
} from '../support/orders';
import { copiesOf, directUrl, streamLeader } from '../support/replicas';
import { expect, test, sleep } from './replicated-shop';

// Parts killed with kill -9 while shoppers order and read (a NATS node; then a copy of products, a copy of
// orders and the stream leader): what was acknowledged is kept, each Idempotency-Key one stored order, stock
// exact. Kept last of the replicas project (files run in name order): the parts come back, but the
// stream's leader and the copies' caches are not what the earlier files start from.

test('takes orders (orders asks products over NATS) after one NATS node is killed with kill -9', async ({
  replicated,
}) => {
  const { stack, lines, listProduct, completed } = replicated;
  test.setTimeout(90_000);
  const shopper: UserInfo = await signUpThroughApi(stack.url);
  // A product of its own: the first one listed may be an earlier test's, its stock sold.
  const product = await listProduct('After NATS kill', 100);
  const node = stack.pidOf('nats-1');
  expect(node).toBeDefined();
  const orderCopies = copiesOf(stack, 'orders').map((copy) => copy.name);
  // The gateway's lines from here on: earlier tests' checkouts are in its log too.
  const sinceKill = Date.now();
  const seen = lines.length;
  process.kill(node!, 'SIGKILL');

  // Right after the kill a client may still be reconnecting: a refusal is a JSON 503 and a retry with the
  // same key ends in the order; each copy of orders must then take orders.
  for (const key of ['after-kill-1', 'after-kill-2', 'after-kill-3', 'after-kill-4']) {
    await expect
      .poll(
        async () => {
          const answer = await placeOrder(stack.url, shopper, product._id, key);
          expect([201, 503]).toContain(answer.status);
          if (answer.status === 503) expect(typeof answer.message).toBe('string');
          return answer.status;
        },
        { timeout: 30_000, intervals: [500] },
      )
      .toBe(201);
  }
  // Each copy of orders took orders after the kill: checkouts it answered 201, as the gateway logged them.
  // The gateway takes turns between the copies; more orders are placed through it until each copy shows
  // one (a copy that takes none never does, and the poll fails when its time is up).
  const checkoutsSinceKill = () =>
    Object.fromEntries(
      orderCopies.map((copy) => [
        copy,
        completed(copy, sinceKill, '/api/orders', { method: 'POST', status: 201 }) > 0,
      ]),
    );
  await expect
    .poll(
      async () => {
        const took = checkoutsSinceKill();
        if (Object.values(took).includes(false)) {
          const answer = await placeOrder(stack.url, shopper, product._id, crypto.randomUUID());
          expect([201, 503]).toContain(answer.status);
        }
        return took;
      },
      { timeout: 30_000, intervals: [500], message: 'each copy of orders took a checkout after the kill' },
    )
    .toEqual(Object.fromEntries(orderCopies.map((copy) => [copy, true])));
  for (const instance of stack.instances) {
    const ready = await fetch(`http://127.0.0.1:${instance.port}/health/ready`);
    expect(ready.status, instance.name).toBe(200);
  }
  // The runner brings the node back; the next test starts on a whole cluster.
  await expect
    .poll(() => lines.slice(seen).some((line) => line.text.startsWith('✓ nats-1 is ready again')), {
      timeout: 30_000,
    })
    .toBe(true);
});

/** One catalogue read through the gateway and its answer. */
interface Read {
  url: string;
  at: number;
  ms: number;
  status: number;
  raw?: string;
}

test('kill -9 of a copy of products, a copy of orders and the stream leader among NATS nodes while shoppers order and read: no read fails, only orders sent while a killed part was down are refused, each Idempotency-Key one stored order, stock exact, no checkout recovered twice', async ({
  replicated,
}) => {
  const { stack, lines, admin, shoppers, nats, listProduct } = replicated;
  test.setTimeout(240_000);
  const START = 10_000;
  const SETTLE_MS = 40_000;
  const product = await listProduct('Kill', START);
  const orderCopies = copiesOf(stack, 'orders').map((copy) => copy.name);
  const productCopies = copiesOf(stack, 'products').map((copy) => copy.name);
  // Every copy's log from here on: the recovery passes' lines and the NATS reconnections of this test only.
  const logs = markLogs(
    stack.logDir,
    stack.instances.map((instance) => instance.name),
  );
  const finished = () =>
    productCopies.flatMap((copy) =>
      jsonLinesSince(stack.logDir, copy, 'finishing an interrupted stock reservation', logs).map((line) =>
        String(line['reservationId']),
      ),
    );
  const leader = await streamLeader(nats);

  const seen = lines.length;
  const runnerLines = () => lines.slice(seen);
  const kills: Record<string, number> = {};
  const killed = () => Object.keys(kills);
  // When a killed part was back: its "ready again" line on the console and, for a NATS node, every service
  // that lost its connection with it connected again (its log's reconnect line), whichever came last.
  const backAt = (part: string) => {
    const ready = runnerLines().find((line) => line.text.startsWith(`✓ ${part} is ready again`))?.at;
    if (ready === undefined || !part.startsWith('nats-')) return ready ?? Infinity;
    const reconnected = stack.instances.flatMap((instance) =>
      jsonLinesSince(stack.logDir, instance.name, '"nats connection status"', logs)
        .filter((line) => line['nats'] === 'reconnect')
        .map((line) => Date.parse(String(line['time'])))
        .filter((at) => at >= kills[part]!),
    );
    return Math.max(ready, ...reconnected);
  };

  const started = Date.now();
  // The shoppers go on for 14 s and past the return of the last part killed, until each loop could order
  // once more after it: however long a busy machine takes to restart the parts, the test sees the shop
  // whole again. The readers read as long as the shoppers order.
  const LOOPS = 2;
  // Read from the logs at most every half second while the shoppers ask before each order.
  let lastBack = { at: Infinity, askedAt: 0 };
  const lastBackAt = () => {
    if (Date.now() - lastBack.askedAt >= 500) {
      const at = killed().length === 3 ? Math.max(...killed().map(backAt)) : Infinity;
      lastBack = { at, askedAt: Date.now() };
    }
    return lastBack.at;
  };
  const ordering = shopPastRecovery(stack.url, shoppers, product._id, LOOPS, lastBackAt);
  let shopping = true;
  void ordering.finally(() => (shopping = false));
  const reads: Read[] = [];
  const reader = async () => {
    while (shopping) {
      for (const url of [`/api/products/${product._id}`, '/api/products?limit=7']) {
        const at = Date.now();
        try {
          const response = await fetch(`${stack.url}${url}`, { signal: AbortSignal.timeout(15_000) });
          const text = await response.text();
          reads.push({
            url,
            at,
            ms: Date.now() - at,
            status: response.status,
            ...(response.ok ? {} : { raw: text.slice(0, 120) }),
          });
        } catch (error) {
          reads.push({ url, at, ms: Date.now() - at, status: 0, raw: String(error) });
        }
      }
      await sleep(50);
    }
  };
  const reading = Promise.all([1, 2, 3].map(reader));

  // orders-2 dies with checkouts waiting on their reserve: both copies of products are paused a moment so
  // checkouts pile up, then orders-2 is killed and products resumes, taking stock for checkouts whose
  // process is gone (faults.spec.ts does the same). Then products-2, then the events stream's leader.
  await sleep(started + 2_000 - Date.now());
  const paused = productCopies.map((copy) => stack.pidOf(copy as never)!);
  for (const pid of paused) process.kill(pid, 'SIGSTOP');
  await sleep(500);
  kills['orders-2'] = Date.now();
  process.kill(stack.pidOf('orders-2')!, 'SIGKILL');
  await sleep(100);
  for (const pid of paused) process.kill(pid, 'SIGCONT');
  await sleep(started + 5_000 - Date.now());
  kills['products-2'] = Date.now();
  process.kill(stack.pidOf('products-2')!, 'SIGKILL');
  await sleep(started + 8_000 - Date.now());
  kills[leader] = Date.now();
  process.kill(stack.pidOf(leader as `nats-${number}`)!, 'SIGKILL');
  const [attempts] = await Promise.all([ordering, reading]);

  // The runner said what died, and brought each back.
  for (const part of killed()) {
    expect(runnerLines().map((line) => line.text)).toContainEqual(
      expect.stringMatching(new RegExp(`✗ ${part} exited unexpectedly \\(signal SIGKILL\\)`)),
    );
    await expect
      .poll(() => backAt(part), { timeout: 30_000, message: `${part} back` })
      .toBeLessThan(Infinity);
  }

  const accepted = attempts.filter((attempt) => attempt.status === 201);
  const refused = attempts.filter((attempt) => attempt.status !== 201);
  // While a killed part was down: answered after its kill, and sent before it was back.
  const whileDown = (part: string, attempt: Attempt | Read) =>
    attempt.at + attempt.ms >= kills[part]! && attempt.at <= backAt(part);
  const downAtSending = (attempt: Attempt) => killed().filter((part) => whileDown(part, attempt));
  test.info().annotations.push({
    type: 'kill -9 of orders-2, products-2 and the NATS stream leader',
    description:
      `${reads.length} reads, ${reads.filter((read) => read.status !== 200).length} failed; ` +
      `${attempts.length} orders: ${accepted.length} accepted, ${refused.length} refused ` +
      `(${
        refused
          .map(
            (attempt) =>
              `${attempt.status} sent ${Math.min(
                ...Object.values(kills)
                  .map((at) => attempt.at - at)
                  .filter((ms) => ms >= -attempt.ms),
              )} ms after a kill (${downAtSending(attempt).join(', ') || 'nothing down'})`,
          )
          .join(', ') || 'none'
      }); ` +
      `kills at ${killed()
        .map((part) => `${part} +${kills[part]! - started} ms, back after ${backAt(part) - kills[part]!} ms`)
        .join(', ')}`,
  });

  // No read failed: the gateway sent each one the dying copy could not answer to the other. Reads were
  // made while products-2 was down, the outage they must ride out.
  expect(
    reads.filter((read) => read.status !== 200),
    'catalogue reads that failed',
  ).toEqual([]);
  expect(
    reads.filter((read) => whileDown('products-2', read)).length,
    'catalogue reads while products-2 was down',
  ).toBeGreaterThan(0);
  // Only orders in flight while a killed part was down failed, each with a JSON message; while orders-2
  // or products-2 was down the other copy took orders; orders were taken after the NATS node's kill.
  expect(
    refused.filter(
      (attempt) => ![502, 503].includes(attempt.status) || !attempt.message || attempt.raw !== undefined,
    ),
    'refusals other than a 502/503 with a JSON message',
  ).toEqual([]);
  expect(
    refused.filter((attempt) => downAtSending(attempt).length === 0),
    'refusals of orders sent while no killed part was down',
  ).toEqual([]);
  expect(
    Object.fromEntries(
      ['orders-2', 'products-2'].map((part) => [
        part,
        accepted.some((attempt) => attempt.at > kills[part]! && attempt.at + attempt.ms < backAt(part)),
      ]),
    ),
    'an order sent after the kill accepted before the killed copy was back',
  ).toEqual({ 'orders-2': true, 'products-2': true });
  expect(accepted.some((attempt) => attempt.at > kills[leader]!)).toBe(true);

  // The checkouts orders-2 left behind are given back once, by one copy of orders; no stalled reservation
  // is finished twice by the two copies of products.
  await expect
    .poll(() => releasedOrphans(stack.logDir, orderCopies, logs).length, {
      timeout: SETTLE_MS,
      intervals: [1_000],
      message: 'the recovery pass gave back the stock of at least one checkout orders-2 left',
    })
    .toBeGreaterThan(0);
  const released = releasedOrphans(stack.logDir, orderCopies, logs);
  expect(
    released.filter((id, index) => released.indexOf(id) !== index),
    'checkouts recovered twice',
  ).toEqual([]);
  const finishedNow = finished();
  expect(
    finishedNow.filter((id, index) => finishedNow.indexOf(id) !== index),
    'reservations finished twice',
  ).toEqual([]);

  // Stored against answered, per Idempotency-Key, the stock read on each copy of products: every refused
  // request retried under its key (as the storefront does), each key one stored order, no more.
  const storedBeforeRetries = await expectAnswersTrueToWhatIsStored({
    url: stack.url,
    admin,
    productId: product._id,
    start: START,
    attempts,
    stockUrls: copiesOf(stack, 'products').map(directUrl),
    settleMs: SETTLE_MS,
    what: 'kill -9 of orders-2, products-2 and the NATS stream leader',
  });
  expect(
    released.filter((id) => storedBeforeRetries.includes(id)),
    'released and yet stored',
  ).toEqual([]);
  test.info().annotations.push({
    type: 'recovery after the kills',
    description: `${released.length} interrupted checkouts given back (${orderCopies.map((copy) => `${copy} ${releasedOrphans(stack.logDir, [copy], logs).length}`).join(', ')}), ${finishedNow.length} stalled reservations finished`,
  });
});
