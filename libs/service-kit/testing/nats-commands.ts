import { HttpException } from '@nestjs/common';
import { type ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { inject } from 'vitest';

/**
 * A NestJS NATS client, connected, as `natsClientProvider` gives a service one: send commands with
 * `requestReply(client, …)` as another service would. The run's NATS when `natsUrl` is absent; close
 * the client after.
 */
export async function connectNatsClient(natsUrl: string = inject('natsUrl')): Promise<ClientProxy> {
  const client = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [natsUrl] } });
  await client.connect();
  return client;
}

/**
 * The status and message of the HttpException a command (`requestReply`) or a check rejects with;
 * fails when it passes.
 */
export async function refusalOf(work: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof HttpException) return { status: error.getStatus(), message: error.message };
    throw error;
  }
  throw new Error('it was not refused');
}
