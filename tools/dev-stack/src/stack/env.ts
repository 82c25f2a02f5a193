import { SERVICES, type ServiceName } from '../ports.js';

/**
 * SHOP_REPLICAS: copies of services to run, `products=2,orders=2` (a service not named runs once).
 * Anything else (an unknown service, a count that is not a whole number from 1 to 10) is refused with
 * the variable's name, so a typo never quietly runs one copy.
 */
export function replicasFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<Record<ServiceName, number>> {
  const raw = (env['SHOP_REPLICAS'] ?? '').trim();
  const replicas: Partial<Record<ServiceName, number>> = {};
  if (raw === '') return replicas;
  for (const entry of raw.split(',')) {
    const [name, count, ...rest] = entry.trim().split('=');
    const value = Number(count);
    if (!(SERVICES as readonly string[]).includes(name ?? '') || rest.length > 0) {
      throw new Error(`SHOP_REPLICAS="${raw}": "${entry}" names no service (${SERVICES.join(', ')})`);
    }
    if (!Number.isInteger(value) || value < 1 || value > 10) {
      throw new Error(`SHOP_REPLICAS="${raw}": the count of ${name} must be a whole number from 1 to 10`);
    }
    replicas[name as ServiceName] = value;
  }
  return replicas;
}

/** SHOP_NATS_CLUSTER: how many nats-server nodes to run clustered (1, the default, is one plain server). */
export function natsClusterFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = (env['SHOP_NATS_CLUSTER'] ?? '').trim();
  if (raw === '') return 1;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 1 || size > 5) {
    throw new Error(`SHOP_NATS_CLUSTER="${raw}" must be a whole number from 1 to 5`);
  }
  return size;
}

/**
 * The users service's per-address limits (sign-ins, sign-ups, password e-mails and resets), each set to
 * `limit`: a test or a load run on one machine is one address for every client, so the limits a real
 * shopper never meets would refuse it. The per-account limits stay as shipped; the users service's own
 * tests prove both kinds.
 */
export const addressLimitsRaisedTo = (limit: number): Record<string, string> => ({
  THROTTLE_SIGNIN_PER_ADDRESS: String(limit),
  THROTTLE_SIGNUP_PER_ADDRESS: String(limit),
  THROTTLE_FORGOT_PER_ADDRESS: String(limit),
  THROTTLE_RESET_PER_ADDRESS: String(limit),
});
