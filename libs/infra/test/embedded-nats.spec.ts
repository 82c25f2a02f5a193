import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, StringCodec, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedNats, type EmbeddedNats } from '../src/embedded-nats.js';
import { freePort } from '../src/free-port.js';
import { isAlive } from './process-helpers.js';

const codec = StringCodec();

describe('embedded NATS', () => {
  let server: EmbeddedNats;
  let nc: NatsConnection;

  beforeAll(async () => {
    server = await startEmbeddedNats();
    nc = await connect({ servers: server.url });
  });

  afterAll(async () => {
    await nc?.close();
    await server?.stop();
  });

  it('runs JetStream: a published event can be read back, and a repeated message id is dropped', async () => {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: 'ORDERS', subjects: ['order.>'] });
    const js = nc.jetstream();

    const first = await js.publish('order.created', codec.encode('{"id":"o1"}'), { msgID: 'o1' });
    const again = await js.publish('order.created', codec.encode('{"id":"o1"}'), { msgID: 'o1' });
    expect(first.duplicate).toBe(false);
    expect(again.duplicate).toBe(true);

    const consumer = await js.consumers.get('ORDERS');
    const message = await consumer.next({ expires: 5_000 });
    expect(message?.subject).toBe('order.created');
    expect(codec.decode(message!.data)).toBe('{"id":"o1"}');
    expect((await jsm.streams.info('ORDERS')).state.messages).toBe(1);
  });

  it('serves monitoring, then removes its temporary store and leaves no process behind after stop()', async () => {
    const before = new Set(listStoreDirs());
    const monitorPort = await freePort();
    const other = await startEmbeddedNats({ monitorPort });
    const created = listStoreDirs().filter((dir) => !before.has(dir));
    expect(created).toHaveLength(1);
    expect((await fetch(`http://127.0.0.1:${monitorPort}/healthz?js-enabled-only=true`)).status).toBe(200);
    expect(isAlive(other.pid)).toBe(true);
    await other.stop();
    expect(isAlive(other.pid)).toBe(false);
    for (const dir of created) expect(existsSync(dir)).toBe(false);
  });

  it('keeps a store folder it was given', async () => {
    const storeDir = mkdtempSync(join(tmpdir(), 'shop-nats-given-'));
    try {
      const other = await startEmbeddedNats({ storeDir });
      await other.stop();
      expect(existsSync(storeDir)).toBe(true);
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  });
});

function listStoreDirs(): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('shop-nats-') && !name.startsWith('shop-nats-given-'))
    .map((name) => join(tmpdir(), name));
}
