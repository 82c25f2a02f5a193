import { isIPv4, isIPv6 } from 'node:net';
import { CLIENT_IP_HEADER } from '@shop/contracts';
import type { FastifyRequest } from 'fastify';

function normalise(address: string): string | undefined {
  const trimmed = address.trim();
  if (isIPv4(trimmed)) return trimmed;
  if (!isIPv6(trimmed)) return undefined;
  const lower = trimmed.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  // One IPv6 host usually owns a whole /64: counting per address would let it rotate freely.
  const [head = '', tail = ''] = lower.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = lower.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The client address attempts are counted by: the gateway's `X-Real-IP` (it overwrites whatever a
 * client sent; only the gateway reaches the services), else the socket's peer. IPv6 addresses
 * count per /64 network.
 */
export function clientAddress(request: Pick<FastifyRequest, 'headers' | 'ip'>): string {
  const header = request.headers[CLIENT_IP_HEADER];
  const fromGateway = typeof header === 'string' ? normalise(header) : undefined;
  return fromGateway ?? normalise(request.ip) ?? 'unknown';
}
