// The soak's traffic: every call through the gateway, timed and counted under its route (bench/src/soak.ts).

export interface RouteStats {
  latencies: number[];
  statuses: Record<string, number>;
}

export const routes = new Map<string, RouteStats>();

function record(route: string, status: number | string, ms: number): void {
  let stats = routes.get(route);
  if (!stats) {
    stats = { latencies: [], statuses: {} };
    routes.set(route, stats);
  }
  stats.latencies.push(ms);
  stats.statuses[String(status)] = (stats.statuses[String(status)] ?? 0) + 1;
}

export interface Answer<T> {
  status: number;
  body: T | undefined;
}

let base = '';

/** Where every call goes: the gateway of the stack under test. */
export function callThrough(gatewayUrl: string): void {
  base = gatewayUrl;
}

/** One call through the gateway, timed and counted under `route` (the path's template). */
export async function call<T>(
  route: string,
  path: string,
  init: {
    method?: string;
    token?: string;
    json?: unknown;
    form?: FormData;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer<T>> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    record(route, response.status, performance.now() - started);
    let body: T | undefined;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as T);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    record(
      route,
      error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'dropped',
      performance.now() - started,
    );
    return { status: 0, body: undefined };
  }
}

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
