import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { SiteSettings } from '@shop/contracts';
import { bootstrapService, createServiceContext, loadConfig } from '@shop/service-kit';
import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AppModule } from '../src/app.module';
import { dataConfigSchema } from '../src/config/data.config';
import { SiteSettingsService } from '../src/settings/site-settings.service';

let app: NestFastifyApplication;
let base: string;

beforeAll(async () => {
  const config = loadConfig(dataConfigSchema, {
    PORT: '0',
    HOST: '127.0.0.1',
    MONGO_URL: mongoUrlFor(inject('mongoUrl'), uniqueDbName('data')),
    NATS_URL: inject('natsUrl'),
    LOG_LEVEL: 'warn',
    DEFAULT_SITE_NAME: 'Test Arms',
  });
  const context = createServiceContext('data', config);
  app = await bootstrapService(context, AppModule.register(context));
  base = await app.getUrl();
});

afterAll(async () => {
  await app?.close();
});

describe('data service', () => {
  it('answers the seeded site settings as a list', async () => {
    const response = await fetch(`${base}/api/data/all-data`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as SiteSettings[];
    expect(body).toEqual([{ _id: expect.any(String), siteName: 'Test Arms', currency: '$', logo: '' }]);
  });

  it('seeds the default record only once', async () => {
    await app.get(SiteSettingsService).onApplicationBootstrap();
    const body = (await (await fetch(`${base}/api/data/all-data`)).json()) as SiteSettings[];
    expect(body).toHaveLength(1);
  });
});
