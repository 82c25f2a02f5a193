import { freePort } from '@shop/infra';

/** The documented local ports (README); tests ask for free ones instead. */
export const DEFAULT_PORTS = {
  gateway: 8000,
  shell: 4000,
  'mf-catalog': 4001,
  'mf-checkout': 4002,
  'mf-admin': 4003,
  products: 3001,
  orders: 3002,
  users: 3003,
  wallet: 3004,
  data: 3005,
  media: 3006,
  mongo: 27018,
  nats: 4222,
} as const;

export type PartName = keyof typeof DEFAULT_PORTS;

/** Every back-end service the gateway routes to, in start order. */
export const SERVICES = ['products', 'orders', 'users', 'wallet', 'data', 'media'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Every front-end the gateway serves, and the folder its build lands in. */
export const FRONT_ENDS = ['shell', 'mf-catalog', 'mf-checkout', 'mf-admin'] as const;
export type FrontEndName = (typeof FRONT_ENDS)[number];

/**
 * Where each service serves its Prometheus metrics locally: its own listener at PORT + 6000
 * (METRICS_PORT, docs/observability.md), never routed by the gateway.
 */
export const DEFAULT_METRICS_PORTS: Record<ServiceName, number> = {
  products: DEFAULT_PORTS.products + 6000,
  orders: DEFAULT_PORTS.orders + 6000,
  users: DEFAULT_PORTS.users + 6000,
  wallet: DEFAULT_PORTS.wallet + 6000,
  data: DEFAULT_PORTS.data + 6000,
  media: DEFAULT_PORTS.media + 6000,
};

/** The gateway's status listener (GATEWAY_STATUS_PORT: /metrics), and the tools beside the shop. */
export const DEFAULT_OBSERVABILITY_PORTS = {
  gatewayStatus: 8100,
  otlpHttp: 4318,
  jaegerQuery: 16686,
  jaegerQueryGrpc: 16685,
  victoriaMetrics: 8428,
  vmalert: 8880,
} as const;

/** Where the data service serves the fault flags to every service's flagd provider (FLAGS_SYNC_PORT). */
export const DEFAULT_FLAGS_SYNC_PORT = 8015;

/** The mail catcher's SMTP server (the users service's SMTP_URL) and its web inbox. */
export const DEFAULT_MAIL_PORTS = { smtp: 1025, web: 8025 } as const;

/** Every port one stack listens on. */
export interface StackPorts {
  parts: Record<PartName, number>;
  /** Each service's own Prometheus listener (METRICS_PORT). */
  metrics: Record<ServiceName, number>;
  /** The gateway's status listener and the observability tools; 0: the tool picks its own and says so. */
  tools: Record<keyof typeof DEFAULT_OBSERVABILITY_PORTS, number>;
  /** The mail catcher's, when the stack runs one. */
  mail: Record<keyof typeof DEFAULT_MAIL_PORTS, number>;
  /** The first data copy's flagd sync service, which every service's FLAGS_SOURCE names. */
  flagsSync: number;
}

/** The documented ports (`default`, npm start) or free ones (`free`, tests), the gateway's as given. */
export async function stackPorts(kind: 'default' | 'free', gatewayPort?: number): Promise<StackPorts> {
  const parts = {} as Record<PartName, number>;
  for (const part of Object.keys(DEFAULT_PORTS) as PartName[]) {
    parts[part] = kind === 'default' ? DEFAULT_PORTS[part] : await freePort();
  }
  if (gatewayPort !== undefined) parts.gateway = gatewayPort;
  // Set explicitly, free ports included: a free PORT + 6000 may be taken, or past 65535.
  const metrics = {} as Record<ServiceName, number>;
  for (const name of SERVICES)
    metrics[name] = kind === 'default' ? DEFAULT_METRICS_PORTS[name] : await freePort();
  const tools: StackPorts['tools'] = { ...DEFAULT_OBSERVABILITY_PORTS };
  if (kind === 'free') {
    for (const name of Object.keys(tools) as (keyof typeof tools)[]) tools[name] = await freePort();
    // Bound last of all, long after a free port was found: these two pick their own (0) instead.
    tools.gatewayStatus = 0;
    tools.victoriaMetrics = 0;
    tools.vmalert = 0;
  }
  const mail: StackPorts['mail'] = { ...DEFAULT_MAIL_PORTS };
  if (kind === 'free') {
    for (const name of Object.keys(mail) as (keyof typeof mail)[]) mail[name] = await freePort();
  }
  const flagsSync = kind === 'default' ? DEFAULT_FLAGS_SYNC_PORT : await freePort();
  return { parts, metrics, tools, mail, flagsSync };
}
