import { describe, expect, it } from 'vitest';
import { ConfigError, baseServiceConfigSchema, loadConfig } from './service-config';

const good = {
  PORT: '3001',
  MONGO_URL: 'mongodb://127.0.0.1:27018/products',
  NATS_URL: 'nats://127.0.0.1:4222',
};

describe('loadConfig', () => {
  it('coerces numbers and applies defaults', () => {
    const config = loadConfig(baseServiceConfigSchema, good);
    expect(config.PORT).toBe(3001);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.NATS_REQUEST_TIMEOUT_MS).toBe(3000);
    expect(config.NATS_STREAM_REPLICAS).toBe(1);
  });

  it('takes a list of NATS servers and the events stream replicas of a cluster', () => {
    const config = loadConfig(baseServiceConfigSchema, {
      ...good,
      NATS_URL: 'nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224',
      NATS_STREAM_REPLICAS: '3',
    });
    expect(config.NATS_URL.split(',')).toHaveLength(3);
    expect(config.NATS_STREAM_REPLICAS).toBe(3);
    expect(() => loadConfig(baseServiceConfigSchema, { ...good, NATS_STREAM_REPLICAS: '0' })).toThrow(
      /NATS_STREAM_REPLICAS="0"/,
    );
  });

  it('names every bad variable and its value in one error', () => {
    const attempt = () =>
      loadConfig(baseServiceConfigSchema, {
        ...good,
        PORT: 'eighty',
        MONGO_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
      });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT="eighty"/);
    expect(attempt).toThrow(/MONGO_URL: must be a mongodb:\/\/ URL/);
    expect(attempt).toThrow(/LOG_LEVEL="loud"/);
  });

  it('never echoes the value of a variable that may hold a credential', () => {
    const attempt = () =>
      loadConfig(baseServiceConfigSchema, { ...good, MONGO_URL: 'mysql://root:hunter2@db/shop' });
    expect(attempt).toThrow(/MONGO_URL: must be a mongodb:\/\/ URL/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it('reports a missing variable without a value', () => {
    expect(() => loadConfig(baseServiceConfigSchema, { PORT: '1' })).toThrow(/MONGO_URL: /);
  });
});
