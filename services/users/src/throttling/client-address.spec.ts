import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address';

const request = (realIp: string | undefined, ip = '10.0.0.9') => ({
  headers: realIp === undefined ? {} : { 'x-real-ip': realIp },
  ip,
});

describe('clientAddress', () => {
  it("uses the gateway's X-Real-IP", () => {
    expect(clientAddress(request('203.0.113.7'))).toBe('203.0.113.7');
  });

  it('falls back to the socket address without a usable header', () => {
    expect(clientAddress(request(undefined))).toBe('10.0.0.9');
    expect(clientAddress(request('not an address'))).toBe('10.0.0.9');
  });

  it('unwraps IPv4-mapped IPv6 addresses', () => {
    expect(clientAddress(request('::ffff:198.51.100.4'))).toBe('198.51.100.4');
  });

  it('counts IPv6 clients per /64 network', () => {
    expect(clientAddress(request('2001:db8:1:2:aaaa::1'))).toBe('2001:db8:1:2::/64');
    expect(clientAddress(request('2001:0db8:0001:0002:ffff:1:2:3'))).toBe('2001:db8:1:2::/64');
    expect(clientAddress(request('2001:db8::1'))).toBe('2001:db8:0:0::/64');
    expect(clientAddress(request('::1'))).toBe('0:0:0:0::/64');
  });
});
