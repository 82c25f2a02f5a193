import type { ClientProxy } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { baseServiceConfigSchema, loadConfig } from '../config/service-config';
import { SERVICE_CONTEXT, type ServiceContext } from '../service-context';
import { natsClientProvider } from './nats-client.provider';

const PEER_CLIENT = Symbol('PEER_CLIENT');

describe('natsClientProvider', () => {
  it("builds the client from the service's NATS servers, names it, and closes it with the app", async () => {
    const context: ServiceContext = {
      name: 'orders',
      config: loadConfig(baseServiceConfigSchema, {
        PORT: '0',
        MONGO_URL: 'mongodb://127.0.0.1:1/unused',
        NATS_URL: 'nats://127.0.0.1:4222,nats://127.0.0.1:4223',
      }),
      logger: pino({ level: 'silent' }),
    };
    const module = await Test.createTestingModule({
      providers: [
        { provide: SERVICE_CONTEXT, useValue: context },
        natsClientProvider(PEER_CLIENT, 'products'),
      ],
    }).compile();
    const client = module.get<ClientProxy & { options: Record<string, unknown> }>(PEER_CLIENT);
    expect(client.options).toMatchObject({
      servers: ['nats://127.0.0.1:4222', 'nats://127.0.0.1:4223'],
      name: 'orders-to-products',
      maxReconnectAttempts: -1,
    });
    const close = vi.spyOn(client, 'close');
    await module.close();
    expect(close).toHaveBeenCalledOnce();
  });
});
