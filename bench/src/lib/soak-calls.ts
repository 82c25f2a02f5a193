// The soak's traffic: every call through the gateway, timed and counted under its route (bench/src/soak.ts).

export interface RouteStats {
  latencies: number[];
  statuses: Record<string, number>;
}

export const routes = new Map<string, RouteStats>();

/** A server error or a dropped request: enough to find it in the parts' logs (every line has the id). */
export interface ServerError {
  route: string;
  status: number | string;
  /** When it was sent, ISO. */
  at: string;
  /** The answer's `message`, or what the client saw. */
  message: string;
  /** The gateway's correlation id (`Kong-Request-ID`), logged by the gateway and every service. */
  requestId?: string;
}

/** The first server errors of the run, in order (a run that fails says which, and why). */
export const serverErrors: ServerError[] = [];
const MAX_SERVER_ERRORS_KEPT = 50;

function keepServerError(error: ServerError): void {
  if (serverErrors.length < MAX_SERVER_ERRORS_KEPT) serverErrors.push(error);
}

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
  const sentAt = new Date().toISOString();
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
    if (response.status >= 500) {
      keepServerError({
        route,
        status: response.status,
        at: sentAt,
        message: String((body as { message?: unknown } | undefined)?.message ?? text.slice(0, 200)),
        requestId: response.headers.get('kong-request-id') ?? undefined,
      });
    }
    return { status: response.status, body };
  } catch (error) {
    const status = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'dropped';
    record(route, status, performance.now() - started);
    keepServerError({ route, status, at: sentAt, message: String(error) });
    return { status: 0, body: undefined };
  }
}

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
