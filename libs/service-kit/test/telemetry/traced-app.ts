// The traced test service of the telemetry tests, started as a service starts (after the SDK: import
// the telemetry starter first), with a consumer of its event as another part of the shop would have.
import { context, trace } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { EventEnvelope } from '@shop/contracts';
import { freePort } from '@shop/testing';
import { expect } from 'vitest';
import { baseServiceConfigSchema } from '../../src/config/service-config';
import { type ConsumerHandle, JetStreamEvents } from '../../src/events/jetstream-events';
import { startServiceApp } from '../../testing';
import { capturedLogger } from '../captured-logger';
import { THING_MADE, TracedAppModule } from './traced-app.module';

export interface ConsumedEvent {
  event: EventEnvelope;
  /** The trace id active in the consumer while it handled the event. */
  traceId?: string;
  /** The W3C `tracestate` active there, as a header would carry it. */
  traceState?: string;
}

export interface TracedApp {
  app: NestFastifyApplication;
  base: string;
  metricsUrl: string;
  durable: string;
  logLines: Record<string, unknown>[];
  consumed: ConsumedEvent[];
  /** A call as the gateway makes it: the test's own fetch is kept out of tracing, so its header is the one sent. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** POST /api/traced as the gateway calls it; answers the id. */
  make(name: string, traceparent?: string, tracestate?: string): Promise<string>;
  /** The log line of the thing `id` that `make` made, among the lines logged from `from` on (all by default). */
  madeLine(id: string, from?: number): Record<string, unknown> | undefined;
  /** POST /api/traced with a body it refuses (400), in the trace of `traceparent`. */
  refused(traceparent: string): Promise<void>;
  /** The metrics listener's text. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/** The traced app on a database of its own; `env` adds to its environment (FLAGS_SOURCE, ...). */
export async function startTracedApp(
  databaseName: string,
  env: Record<string, string> = {},
): Promise<TracedApp> {
  const { logger, lines: logLines } = capturedLogger('things');
  const metricsPort = await freePort();
  const { app } = await startServiceApp({
    name: 'things',
    database: databaseName,
    configSchema: baseServiceConfigSchema,
    module: (serviceContext) => TracedAppModule.register(serviceContext),
    env: { METRICS_PORT: String(metricsPort), ...env },
    logger,
  });
  const base = await app.getUrl();
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const durable = `${databaseName}-${Date.now()}`;
  const consumed: ConsumedEvent[] = [];
  // Another part of the shop consuming the event, as products consumes order.paid.
  const consumer: ConsumerHandle = await app
    .get(JetStreamEvents)
    .consume(durable, [THING_MADE], async (event) => {
      const active = trace.getActiveSpan()?.spanContext();
      consumed.push({ event, traceId: active?.traceId, traceState: active?.traceState?.serialize() });
    });
  const call = (path: string, init?: RequestInit): Promise<Response> =>
    context.with(suppressTracing(context.active()), () => fetch(`${base}${path}`, init));
  return {
    app,
    base,
    metricsUrl,
    durable,
    logLines,
    consumed,
    call,
    async make(name, traceparent, tracestate) {
      const response = await call('/api/traced', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(traceparent ? { traceparent } : {}),
          ...(tracestate ? { tracestate } : {}),
        },
        body: JSON.stringify({ name }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
    madeLine: (id, from = 0) =>
      logLines.slice(from).find((line) => line['msg'] === 'thing made' && line['id'] === id),
    async refused(traceparent) {
      const response = await call('/api/traced', {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent },
        body: JSON.stringify({ name: 5 }),
      });
      expect(response.status).toBe(400);
    },
    async scrape() {
      const response = await fetch(metricsUrl);
      expect(response.status).toBe(200);
      return response.text();
    },
    async close() {
      await consumer.stop();
      await app.close();
    },
  };
}

/** Waits until the consumer has handled the event of thing `id`. */
export async function consumedEventOf(traced: TracedApp, id: string): Promise<ConsumedEvent> {
  for (let waited = 0; ; waited += 50) {
    const found = traced.consumed.find((each) => (each.event.data as { id: string }).id === id);
    if (found) return found;
    if (waited > 10_000) throw new Error('the outbox event was never consumed');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The value of one Prometheus sample whose labels include `labels`, or undefined. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
