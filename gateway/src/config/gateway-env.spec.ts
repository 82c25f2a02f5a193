import { describe, expect, it } from 'vitest';
import { GatewayEnvError, parseGatewayEnv, parseUpstreamAddress, parseUpstreamList } from './gateway-env';

describe('parseGatewayEnv', () => {
  it('uses the documented defaults', () => {
    expect(parseGatewayEnv({}, '/repo/gateway/kong.yml')).toEqual({
      configPath: '/repo/gateway/kong.yml',
      port: 8000,
      statusPort: 8100,
      host: '0.0.0.0',
      upstreams: {},
      rateLimitFactor: 1,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    expect(
      parseGatewayEnv(
        {
          GATEWAY_CONFIG: '/etc/kong.yml',
          GATEWAY_PORT: '8100',
          GATEWAY_STATUS_PORT: '9100',
          GATEWAY_HOST: '127.0.0.1',
          GATEWAY_UPSTREAMS: 'products=127.0.0.1:41234, shell=[::1]:40001',
          GATEWAY_RATE_LIMIT_FACTOR: '2.5',
        },
        '/unused',
      ),
    ).toMatchObject({
      configPath: '/etc/kong.yml',
      port: 8100,
      statusPort: 9100,
      host: '127.0.0.1',
      upstreams: { products: ['127.0.0.1:41234'], shell: ['[::1]:40001'] },
      rateLimitFactor: 2.5,
    });
  });

  it('turns the status listener off with GATEWAY_STATUS_PORT=0', () => {
    expect(parseGatewayEnv({ GATEWAY_STATUS_PORT: '0' }, '/k.yml').statusPort).toBeNull();
    expect(() => parseGatewayEnv({ GATEWAY_STATUS_PORT: 'metrics' }, '/k.yml')).toThrow(
      /GATEWAY_STATUS_PORT/,
    );
  });

  it('refuses bad values, listing each of them', () => {
    try {
      parseGatewayEnv(
        { GATEWAY_PORT: '70000', GATEWAY_RATE_LIMIT_FACTOR: '-1', GATEWAY_UPSTREAMS: 'products' },
        '/k.yml',
      );
      expect.fail('expected a refusal');
    } catch (error) {
      expect(error).toBeInstanceOf(GatewayEnvError);
      expect((error as GatewayEnvError).problems).toEqual([
        expect.stringContaining('GATEWAY_PORT must be a port number'),
        expect.stringContaining('GATEWAY_RATE_LIMIT_FACTOR must be a positive number'),
        expect.stringContaining('GATEWAY_UPSTREAMS entry "products" must look like name=host:port'),
      ]);
    }
  });
});

describe('upstream overrides', () => {
  it('parses host:port, IPv6 in brackets included', () => {
    expect(parseUpstreamAddress('127.0.0.1:3001')).toEqual({ host: '127.0.0.1', port: 3001 });
    expect(parseUpstreamAddress('[::1]:3001')).toEqual({ host: '::1', port: 3001 });
    expect(parseUpstreamAddress('products')).toBeUndefined();
    expect(parseUpstreamAddress('h:0')).toBeUndefined();
  });

  it('takes a name listed several times as replicas, and refuses the same address twice', () => {
    expect(parseUpstreamList('a=h:1, b=h:3, a=h:2')).toEqual({ a: ['h:1', 'h:2'], b: ['h:3'] });
    expect(() => parseUpstreamList('a=h:1,a=h:1')).toThrow(/lists a=h:1 twice/);
  });
});
