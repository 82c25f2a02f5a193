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
