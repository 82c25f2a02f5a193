// Keeps the render cache true to the catalogue (docs/rendering.md, "Cache"): the products service's
// `catalog.changed` (every write, stock included, at most once) and the JetStream events of admins'
// changes (products, site settings) drop what they touch. The cache is on only while both are followed
// and NATS is connected; a message lost while away is covered by dropping everything.
import {
  CATALOG_CHANGED,
  type CatalogChangedMessage,
  EVENTS_STREAM,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  SETTINGS_UPDATED,
  eventSubject,
} from '@shop/contracts';
import { type ConsumerMessages, DeliverPolicy, JSONCodec, type NatsConnection, connect } from 'nats';
import type { RenderCache } from './render-cache';

/**
 * Admins' changes that may touch any screen: each drops every entry. Written out one by one: the AsyncAPI
 * document of this service (mf-catalog/asyncapi.yaml) is read from these calls (tools/contracts/nats-use.ts).
 */
export const DROPPING_EVENTS = [
  eventSubject(PRODUCT_UPDATED),
  eventSubject(PRODUCT_DELETED),
  eventSubject(SETTINGS_UPDATED),
];
const RETRY_DELAY_MS = 1_000;
const codec = JSONCodec<CatalogChangedMessage>();

export interface RenderInvalidation {
  close(): Promise<void>;
}

/** What one `catalog.changed` message drops. */
export function applyCatalogChange(cache: RenderCache, data: Uint8Array): void {
  let change: CatalogChangedMessage;
  try {
    change = codec.decode(data);
  } catch {
    cache.dropAll();
    return;
  }
  if (Array.isArray(change?.productIds) && change.productIds.every((id) => typeof id === 'string'))
    cache.dropProducts(change.productIds);
  else cache.dropAll();
}

/**
 * Follows the catalogue's changes at `natsUrl` for `cache`, from the first connection on (waiting for
 * NATS if it is not up yet: the service renders without a cache meanwhile).
 */
export function followCatalogChanges(
  cache: RenderCache,
  natsUrl: string,
  log: (entry: Record<string, unknown>) => void,
): RenderInvalidation {
  let nats: NatsConnection | undefined;
  let messages: ConsumerMessages | undefined;
  let stopped = false;
  let connected = false;
  let following = false;
  const update = () => cache.setEnabled(!stopped && connected && following);

  const followEvents = async (connection: NatsConnection) => {
    let lastSequence = 0;
    while (!stopped && !connection.isClosed()) {
      try {
        const consumer = await connection.jetstream().consumers.get(EVENTS_STREAM, {
          filterSubjects: DROPPING_EVENTS,
          ...(lastSequence > 0
            ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: lastSequence + 1 }
            : { deliver_policy: DeliverPolicy.New }),
        });
        messages = await consumer.consume();
        following = true;
        update();
        for await (const message of messages) {
          cache.dropAll();
          lastSequence = message.seq;
        }
      } catch (error) {
        if (!stopped && !connection.isClosed())
          log({ msg: 'following catalogue events failed, retrying', error: String(error) });
      }
      following = false;
      update();
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  };

  const watch = async (connection: NatsConnection) => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        connected = false;
        // Changes announced while away are lost: start again from nothing.
        cache.dropAll();
        update();
      } else if (status.type === 'reconnect') {
        cache.dropAll();
        // The client sends its subscription again on reconnecting; a change announced before the server
        // has it would be missed while the cache keeps pages. The flush's round trip comes after it.
        // A flush the next disconnect cuts short leaves it off until the reconnect after.
        connected = await connection.flush().then(
          () => !connection.isClosed(),
          () => false,
        );
        update();
      }
    }
  };

  /** The first connection, tried again every second until NATS answers or the service stops. */
  const firstConnection = async (): Promise<NatsConnection | undefined> => {
    for (let attempt = 0; !stopped; attempt += 1) {
      try {
        return await connect({
          servers: natsUrl.split(',').map((url) => url.trim()),
          name: 'mf-catalog-render',
          maxReconnectAttempts: -1,
        });
      } catch (error) {
        if (attempt === 0)
          log({ msg: 'NATS not reachable yet: rendering without a cache', error: String(error) });
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
    return undefined;
  };

  const started = (async () => {
    const connection = await firstConnection();
    if (!connection) return;
    nats = connection;
    if (stopped) {
      await connection.close();
      return;
    }
    connection.subscribe(CATALOG_CHANGED, {
      callback: (error, message) => {
        if (error) cache.dropAll();
        else applyCatalogChange(cache, message.data);
      },
    });
    // The subscription is in place on the server before the cache may keep anything.
    await connection.flush();
    connected = true;
    void watch(connection);
    await followEvents(connection);
  })().catch((error: unknown) => {
    if (!stopped)
      log({ msg: 'catalogue changes not followed: rendering without a cache', error: String(error) });
    cache.setEnabled(false);
  });

  return {
    async close() {
      stopped = true;
      update();
      await messages?.close().catch(() => undefined);
      await nats?.close().catch(() => undefined);
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    },
  };
}
