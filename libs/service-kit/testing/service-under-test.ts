import type { ClientProxy } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EventEnvelope } from '@shop/contracts';
import { DEFAULT_CONFIG_PATH, type RunningGateway, startGateway } from '@shop/gateway';
import {
  type JsonAnswer,
  type JsonCallOptions,
  type TestTokens,
  createTestTokens,
  jsonCall,
  uniqueDbName,
  until,
} from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { connect } from 'nats';
import pino from 'pino';
import { expect, inject } from 'vitest';
import type { z } from 'zod';
import type { BaseServiceConfig } from '../src/config/service-config';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { FeatureFlags } from '../src/flags/feature-flags';
import { requestReply } from '../src/nats/request-reply';
import type { ServiceContext } from '../src/service-context';
import { connectNatsClient } from './nats-commands';
import { type ServiceAppOptions, startServiceApp } from './service-app';

/**
 * What `startServiceApp` takes (`name` is also the service's upstream in kong.yml; `env` also
 * overrides JWT_PUBLIC_KEY of `tokens`), and what goes around the app.
 */
export interface ServiceUnderTestOptions<
  TSchema extends z.ZodType<BaseServiceConfig>,
> extends ServiceAppOptions<TSchema> {
  /** Event types to collect into `events`, by a JetStream consumer of the test's own. */
  events?: string[];
  /** Where the gateway finds other services, by their kong.yml upstream names (`{ products: '127.0.0.1:4101' }`). */
  upstreams?: Record<string, string>;
  /** Multiplies the gateway's rate limits (default 1, as configured). */
  rateLimitFactor?: number;
  /** The key pair tokens are signed with; a fresh one when absent. */
  tokens?: TestTokens;
}

export interface ServiceUnderTest<TConfig extends BaseServiceConfig = BaseServiceConfig> {
  app: NestFastifyApplication;
  context: ServiceContext<TConfig>;
  /** The gateway's URL: `call` goes through it, as the storefront does. */
  url: string;
  /** The service's own URL, for what must be shown without the gateway in front (`jsonCall`). */
  serviceUrl: string;
  gateway: RunningGateway;
  mongoUrl: string;
  /** The service's own database, to look at what the API cannot show. */
  db: Connection;
  tokens: TestTokens;
  adminToken: string;
  customerToken: string;
  /** The events of the types asked for (`options.events`), in arrival order. */
  events: EventEnvelope[];
  /** The service's fault flags, for `flagSetFile(…).switchTo(service.flags, …)`. */
  flags: FeatureFlags;
  /** One JSON call through the gateway. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: JsonCallOptions,
  ): Promise<JsonAnswer<T>>;
  /**
   * Checks that `method path` is for admins only: 401 'Not signed in' without a token, 403 'Admin
   * access required' with a customer's, each with nothing else in the body.
   */
  expectAdminOnly(method: string, path: string, options?: Omit<JsonCallOptions, 'token'>): Promise<void>;
  /**
   * Sends a NATS command as another service would (`requestReply`, 5 s at most); a refusal rejects
   * with an HttpException (`refusalOf`).
   */
  command<T>(pattern: string, payload: unknown): Promise<T>;
  /** Publishes an event on the run's NATS as another service's outbox relay does (JetStream, deduplicated by its id). */
  publish(event: EventEnvelope): Promise<void>;
  /**
   * Waits (10 s at most) for an event among `events` that `match` accepts, or of `match.type` whose data
   * holds each of `match.data`'s fields with the same value.
   */
  waitForEvent(match: EventMatch, timeoutMs?: number): Promise<EventEnvelope>;
  /** Stops what was started, last first. */
  close(): Promise<void>;
}

/** An event's test: a predicate, or its type and some fields of its data. */
export type EventMatch =
  ((event: EventEnvelope) => boolean) | { type: string; data: Readonly<Record<string, unknown>> };

const matcher =
  (match: EventMatch) =>
  (event: EventEnvelope): boolean =>
    typeof match === 'function'
      ? match(event)
      : event.type === match.type &&
        Object.entries(match.data).every(
          ([field, value]) => (event.data as Record<string, unknown> | undefined)?.[field] === value,
        );

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
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const stop of closers.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const { app, context, mongoUrl } = await startServiceApp({
      ...options,
      natsUrl,
      env: { JWT_PUBLIC_KEY: tokens.publicKeyPem, ...options.env },
    });
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

    // Connected at the first command, and the first event published: most tests send none.
    let commands: Promise<ClientProxy> | undefined;
    closers.push(async () => (await commands)?.close());
    let publisher: Promise<JetStreamEvents> | undefined;
    const publishing = async () => {
      const nats = await connect({ servers: natsUrl });
      closers.push(() => nats.drain());
      return new JetStreamEvents(nats, pino({ level: 'silent' }));
    };

    const customerToken = await tokens.sign({ isAdmin: false });
    const call = <T>(method: string, path: string, callOptions?: JsonCallOptions) =>
      jsonCall<T>(gateway.url, method, path, callOptions);
    const answered = async (method: string, path: string, callOptions: JsonCallOptions) => {
      const { status, body } = await call(method, path, callOptions);
      return { status, body };
    };
    return {
      app,
      context,
      url: gateway.url,
      serviceUrl: await app.getUrl(),
      gateway,
      mongoUrl,
      db,
      tokens,
      adminToken: await tokens.sign({ isAdmin: true }),
      customerToken,
      events,
      flags: app.get(FeatureFlags),
      call,
      async expectAdminOnly(method, path, callOptions = {}) {
        expect(await answered(method, path, callOptions), `${method} ${path} without a token`).toEqual({
          status: 401,
          body: { message: 'Not signed in' },
        });
        expect(
          await answered(method, path, { ...callOptions, token: customerToken }),
          `${method} ${path} as a customer`,
        ).toEqual({ status: 403, body: { message: 'Admin access required' } });
      },
      command: async (pattern, payload) =>
        requestReply(await (commands ??= connectNatsClient(natsUrl)), pattern, payload, 5_000),
      publish: async (event) => (await (publisher ??= publishing())).publish(event),
      waitForEvent: (match, timeoutMs = 10_000) => until(() => events.find(matcher(match)), timeoutMs),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
