import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EventEnvelope } from '@shop/contracts';
import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import {
  type JsonAnswer,
  type JsonCallOptions,
  type TestTokens,
  createTestTokens,
  jsonCall,
  mongoUrlFor,
  uniqueDbName,
  until,
} from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { connect } from 'nats';
import pino, { type Logger } from 'pino';
import { inject } from 'vitest';
import type { z } from 'zod';
import { bootstrapService } from '../src/bootstrap/bootstrap-service';
import { type BaseServiceConfig, loadConfig } from '../src/config/service-config';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { type ServiceContext, createServiceContext } from '../src/service-context';

export interface ServiceUnderTestOptions<TSchema extends z.ZodType<BaseServiceConfig>> {
  /** The service's name: its logs, its NATS queue group, its upstream in kong.yml, its database's prefix. */
  name: string;
  configSchema: TSchema;
  /** The app's module for a context, as main.ts builds it: `(context) => AppModule.register(context)`. */
  module: (context: ServiceContext<z.infer<TSchema>>) => DynamicModule;
  /**
   * The service's environment besides what this sets (PORT, HOST, MONGO_URL, NATS_URL,
   * LOG_LEVEL=silent, JWT_PUBLIC_KEY of `tokens`); `undefined` removes one of those.
   */
  env?: Record<string, string | undefined>;
  /** The NATS to use; the run's shared one (global set-up) when absent. */
  natsUrl?: string;
  /** Event types to collect into `events`, by a JetStream consumer of the test's own. */
  events?: string[];
  /** Where the gateway finds other services, by their kong.yml upstream names (`{ products: '127.0.0.1:4101' }`). */
  upstreams?: Record<string, string>;
  /** Multiplies the gateway's rate limits (default 1, as configured). */
  rateLimitFactor?: number;
  /** The key pair tokens are signed with; a fresh one when absent. */
  tokens?: TestTokens;
  /** The service's logger, for a test that reads its lines; one at `LOG_LEVEL` when absent. */
  logger?: Logger;
}

export interface ServiceUnderTest<TConfig extends BaseServiceConfig = BaseServiceConfig> {
  app: NestFastifyApplication;
  context: ServiceContext<TConfig>;
  /** The gateway's URL: `call` goes through it, as the storefront does. */
  url: string;
  gateway: RunningGateway;
  mongoUrl: string;
  /** The service's own database, to look at what the API cannot show. */
  db: Connection;
  tokens: TestTokens;
  adminToken: string;
  customerToken: string;
  /** The events of the types asked for (`options.events`), in arrival order. */
  events: EventEnvelope[];
  /** One JSON call through the gateway. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: JsonCallOptions,
  ): Promise<JsonAnswer<T>>;
  /** Waits (10 s at most) for an event matching `match` among `events`. */
  waitForEvent(match: (event: EventEnvelope) => boolean, timeoutMs?: number): Promise<EventEnvelope>;
  /** Stops what was started, last first. */
  close(): Promise<void>;
}

/**
 * A service's integration test set-up in one call: the service on a database of its own (on the
 * run's database server) and the run's NATS, started as main.ts starts it, the real gateway
 * (kong.yml) in front, tokens of a key pair of its own, and the events it publishes. Whatever
 * started is stopped again when a later step fails.
 */
export async function startServiceUnderTest<TSchema extends z.ZodType<BaseServiceConfig>>(
  options: ServiceUnderTestOptions<TSchema>,
): Promise<ServiceUnderTest<z.infer<TSchema>>> {
  const tokens = options.tokens ?? createTestTokens();
  const natsUrl = options.natsUrl ?? inject('natsUrl');
  const mongoUrl = mongoUrlFor(inject('mongoUrl'), uniqueDbName(options.name));
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const stop of closers.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const config = loadConfig(options.configSchema, {
      PORT: '0',
      HOST: '127.0.0.1',
      MONGO_URL: mongoUrl,
      NATS_URL: natsUrl,
      LOG_LEVEL: 'silent',
      JWT_PUBLIC_KEY: tokens.publicKeyPem,
      ...options.env,
    });
    const context = options.logger
      ? { name: options.name, config, logger: options.logger }
      : createServiceContext(options.name, config);
    const app = await bootstrapService(context, options.module(context));
    closers.push(() => app.close());

    const gateway = await startGateway({
      configPath: DEFAULT_CONFIG_PATH,
      port: 0,
      host: '127.0.0.1',
      upstreams: { ...options.upstreams, [options.name]: new URL(await app.getUrl()).host },
      rateLimitFactor: options.rateLimitFactor ?? 1,
      logger: pino({ level: 'silent' }),
    });
    closers.push(() => gateway.close());

    const db = await mongoose.createConnection(mongoUrl).asPromise();
    closers.push(() => db.close());

    const events: EventEnvelope[] = [];
    if (options.events?.length) {
      const nats = await connect({ servers: natsUrl, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
      closers.push(() => nats.drain());
      const consumer = await new JetStreamEvents(nats, pino({ level: 'silent' })).consume(
        uniqueDbName(`${options.name}-events`),
        options.events,
        async (event) => {
          events.push(event);
        },
      );
      closers.push(() => consumer.stop());
    }

    return {
      app,
      context,
      url: gateway.url,
      gateway,
      mongoUrl,
      db,
      tokens,
      adminToken: await tokens.sign({ isAdmin: true }),
      customerToken: await tokens.sign({ isAdmin: false }),
      events,
      call: (method, path, callOptions) => jsonCall(gateway.url, method, path, callOptions),
      waitForEvent: (match, timeoutMs = 10_000) => until(() => events.find(match), timeoutMs),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
