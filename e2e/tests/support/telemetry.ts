import type { RunningStack } from '@shop/dev-stack';
import { expect } from '../fixtures';

// Reading the stack's traces (Jaeger's query API) and metrics (VictoriaMetrics' query API) in a test.

/** Jaeger and VictoriaMetrics of the stack; the stack runs them unless SHOP_OBSERVABILITY=0. */
export function observabilityOf(stack: RunningStack) {
  if (!stack.observability) {
    throw new Error('the test stack runs without Jaeger and VictoriaMetrics (SHOP_OBSERVABILITY=0?)');
  }
  return stack.observability;
}

export interface JaegerSpan {
  spanID: string;
  operationName: string;
  processID: string;
  references: { refType: string; spanID: string; traceID: string }[];
  tags: { key: string; value: unknown }[];
}
export interface Span {
  id: string;
  name: string;
  service: string;
  kind: string;
  parentId?: string;
  tags: Record<string, unknown>;
}

/** The trace as Jaeger's query API answers it, each span with its service, kind and parent. */
export async function fetchTrace(jaegerUrl: string, traceId: string): Promise<Span[]> {
  const response = await fetch(`${jaegerUrl}/api/traces/${traceId}`);
  if (response.status === 404) return [];
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    data: { spans: JaegerSpan[]; processes: Record<string, { serviceName: string }> }[];
  };
  const trace = body.data[0];
  if (!trace) return [];
  return trace.spans.map((span) => {
    const tags = Object.fromEntries(span.tags.map((tag) => [tag.key, tag.value]));
    return {
      id: span.spanID,
      name: span.operationName,
      service: trace.processes[span.processID]?.serviceName ?? '?',
      kind: String(tags['span.kind'] ?? 'internal'),
      parentId: span.references.find((reference) => reference.refType === 'CHILD_OF')?.spanID,
      tags,
    };
  });
}

/** Waits until the trace holds what `complete` wants (spans arrive in batches from six processes). */
export async function traceUntil(
  jaegerUrl: string,
  traceId: string,
  complete: (spans: Span[]) => boolean,
): Promise<Span[]> {
  let spans: Span[] = [];
  await expect
    .poll(
      async () => {
        spans = await fetchTrace(jaegerUrl, traceId);
        return complete(spans);
      },
      { timeout: 30_000, intervals: [500, 1_000] },
    )
    .toBe(true);
  return spans;
}

/** `descendant` lies under `ancestor` following parent links inside the trace. */
export function isUnder(spans: Span[], descendant: Span, ancestor: Span): boolean {
  const byId = new Map(spans.map((span) => [span.id, span]));
  for (let at = byId.get(descendant.parentId ?? ''); at; at = byId.get(at.parentId ?? '')) {
    if (at.id === ancestor.id) return true;
  }
  return false;
}

/** An instant query of VictoriaMetrics (Prometheus' API). */
export async function queryVictoriaMetrics(url: string, query: string) {
  const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await response.json()) as {
    error?: string;
    data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  return { httpStatus: response.status, ...body };
}

/** A sample's value on a Prometheus text page, undefined when the page has none with those labels. */
export async function metricSample(
  url: string,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const text = await (await fetch(url)).text();
  const line = text
    .split('\n')
    .find(
      (each) =>
        each.startsWith(`${name}{`) &&
        Object.entries(labels).every(([label, value]) => each.includes(`${label}="${value}"`)),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
}

/** A sample's value on a Prometheus text page, 0 when absent (a counter not counted yet). */
export async function metricValue(
  url: string,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  return (await metricSample(url, name, labels)) ?? 0;
}
