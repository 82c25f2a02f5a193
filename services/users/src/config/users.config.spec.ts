import { ConfigError, loadConfig } from '@shop/service-kit';
import { describe, expect, it } from 'vitest';
import { LOCAL_ADMIN_EMAIL, LOCAL_ADMIN_PASSWORD, usersConfigSchema } from './users.config';

const base = { MONGO_URL: 'mongodb://127.0.0.1:27018/users', NATS_URL: 'nats://127.0.0.1:4222' };

describe('users configuration', () => {
  it('has documented local defaults', () => {
    const config = loadConfig(usersConfigSchema, base);
    expect(config).toMatchObject({
      PORT: 3003,
      ADMIN_EMAIL: LOCAL_ADMIN_EMAIL,
      ADMIN_PASSWORD: LOCAL_ADMIN_PASSWORD,
      JWT_TTL: 12 * 3_600,
      THROTTLE_WINDOW: 15 * 60,
      BODY_LIMIT_BYTES: 16_384,
    });
    expect(config.MAIL_OUTBOX_DIR).toMatch(/\.data[/\\]outbox$/);
  });

  it('reads durations with units', () => {
    expect(loadConfig(usersConfigSchema, { ...base, JWT_TTL: '15m' }).JWT_TTL).toBe(900);
    expect(loadConfig(usersConfigSchema, { ...base, JWT_TTL: '2d' }).JWT_TTL).toBe(172_800);
    expect(() => loadConfig(usersConfigSchema, { ...base, JWT_TTL: 'forever' })).toThrow(/JWT_TTL/);
    expect(() => loadConfig(usersConfigSchema, { ...base, JWT_TTL: '10s' })).toThrow(/between 1 minute/);
  });

  it('refuses to run in production without keys and without the admin account', () => {
    const run = () => loadConfig(usersConfigSchema, { ...base, NODE_ENV: 'production' });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/JWT_PRIVATE_KEY: required in production/);
    expect(run).toThrow(/JWT_PUBLIC_KEY: required in production/);
    expect(run).toThrow(/ADMIN_EMAIL: required in production/);
    expect(run).toThrow(/ADMIN_PASSWORD: required in production/);
  });

  it('runs in production when given keys and the admin account', () => {
    const config = loadConfig(usersConfigSchema, {
      ...base,
      NODE_ENV: 'production',
      JWT_PRIVATE_KEY_FILE: '/run/secrets/jwt-private.pem',
      JWT_PUBLIC_KEY_FILE: '/run/secrets/jwt-public.pem',
      ADMIN_EMAIL: 'Owner@Shop.Example',
      ADMIN_PASSWORD: 'a-long-and-unusual-secret',
    });
    expect(config.ADMIN_EMAIL).toBe('owner@shop.example');
  });

  it('refuses a weak admin password without printing it', () => {
    let message = '';
    try {
      loadConfig(usersConfigSchema, { ...base, ADMIN_PASSWORD: 'password1' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/ADMIN_PASSWORD: password is too common/);
    expect(message).not.toContain('password1"');
  });
});
