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
} as const;
