import { LOW_STOCK_THRESHOLD_UPDATED, SETTINGS_UPDATED, type SiteSettings } from '@shop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataHarness, startData } from './support/data.harness';
import { SiteSettingsService } from '../src/settings/site-settings.service';

const logo = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1712345678-logo.png';
let data: DataHarness;

beforeAll(async () => {
  data = await startData({
    env: { DEFAULT_SITE_NAME: 'Test Arms' },
    events: [SETTINGS_UPDATED, LOW_STOCK_THRESHOLD_UPDATED],
  });
});

afterAll(async () => {
  await data?.close();
});

async function firstRecord(): Promise<SiteSettings> {
  const { body } = await data.call<SiteSettings[]>('GET', '/api/data/all-data');
  return body[0]!;
}

describe('GET api/data/all-data', () => {
  it('answers the seeded site settings as a public list', async () => {
    const { status, body } = await data.call<SiteSettings[]>('GET', '/api/data/all-data');
    expect(status).toBe(200);
    expect(body).toEqual([
      {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        siteName: 'Test Arms',
        currency: '$',
        logo: '',
        lowStockThreshold: 5,
      },
    ]);
  });

  it('seeds the default record only once', async () => {
    await data.app.get(SiteSettingsService).onApplicationBootstrap();
    const { body } = await data.call<SiteSettings[]>('GET', '/api/data/all-data');
    expect(body).toHaveLength(1);
  });
});

describe('PUT api/data/update-data', () => {
  it('lets an admin change the settings, trims them, and publishes settings.updated', async () => {
    const { _id } = await firstRecord();
    const update = { id: _id, siteName: '  Sentinel Outfitters ', currency: '€', logo, lowStockThreshold: 3 };
    const { status, body } = await data.call('PUT', '/api/data/update-data', {
      token: data.adminToken,
      body: update,
    });
    expect(status).toBe(200);
    const saved = { _id, siteName: 'Sentinel Outfitters', currency: '€', logo, lowStockThreshold: 3 };
    expect(body).toEqual(saved);
    expect(await firstRecord()).toEqual(saved);

    const event = await data.waitForEvent(
      (e) => (e.data as { siteName: string }).siteName === 'Sentinel Outfitters',
    );
    expect(event).toMatchObject({
      type: 'settings.updated',
      data: { settingsId: _id, siteName: 'Sentinel Outfitters', currency: '€', logo },
    });
    const threshold = await data.waitForEvent(
      (e) => e.type === LOW_STOCK_THRESHOLD_UPDATED && e.occurredAt === event.occurredAt,
    );
    expect(threshold.data).toEqual({ settingsId: _id, lowStockThreshold: 3 });
  });

  it('keeps the stored low-stock threshold when a client does not send one', async () => {
    const { _id } = await firstRecord();
    const set = (lowStockThreshold?: number) =>
      data.call<SiteSettings>('PUT', '/api/data/update-data', {
        token: data.adminToken,
        body: { id: _id, siteName: 'Kept Threshold', currency: '$', logo: '', lowStockThreshold },
      });
    expect((await set(7)).body.lowStockThreshold).toBe(7);
    expect(await set(undefined)).toMatchObject({ status: 200, body: { lowStockThreshold: 7 } });
    // Both saves said the threshold: the one sent, then the one kept.
    const sevens = new Set<string>();
    await data.waitForEvent((e) => {
      const said = e.data as { settingsId?: string; lowStockThreshold?: number };
      if (e.type === LOW_STOCK_THRESHOLD_UPDATED && said.settingsId === _id && said.lowStockThreshold === 7)
        sevens.add(e.id);
      return sevens.size === 2;
    });
    for (const bad of [-1, 2.5, '4', 1_000_001]) {
      const answer = await data.call<{ message: string }>('PUT', '/api/data/update-data', {
        token: data.adminToken,
        body: { id: _id, siteName: 'Kept Threshold', currency: '$', logo: '', lowStockThreshold: bad },
      });
      expect(answer.status, String(bad)).toBe(400);
      expect(answer.body.message).toMatch(/lowStockThreshold/);
    }
    expect((await firstRecord()).lowStockThreshold).toBe(7);
  });

  it('accepts an empty logo and ignores fields it does not know', async () => {
    const { _id } = await firstRecord();
    const { status, body } = await data.call('PUT', '/api/data/update-data', {
      token: data.adminToken,
      body: {
        id: _id,
        siteName: 'Test Arms',
        currency: '$',
        logo: '',
        _id: 'ffffffffffffffffffffffff',
        outbox: [],
      },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      _id,
      siteName: 'Test Arms',
      currency: '$',
      logo: '',
      lowStockThreshold: expect.any(Number),
    });
  });

  it('answers 401 without a token and 403 to a customer, changing nothing', async () => {
    const before = await firstRecord();
    await data.expectAdminOnly('PUT', '/api/data/update-data', {
      body: { id: before._id, siteName: 'Hacked', currency: '$', logo: '' },
    });
    expect(await firstRecord()).toEqual(before);
  });

  it('refuses a missing or too long site name or currency with 400', async () => {
    const { _id } = await firstRecord();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ siteName: '   ' }, /siteName is required/],
      [{ siteName: undefined }, /siteName/],
      [{ siteName: 'x'.repeat(61) }, /siteName must be at most 60 characters/],
      [{ currency: '' }, /currency is required/],
      [{ currency: 'EUROS!' }, /currency must be at most 5 characters/],
      [{ currency: 5 }, /currency must be a string/],
    ];
    for (const [change, message] of cases) {
      const body = { id: _id, siteName: 'Test Arms', currency: '$', logo: '', ...change };
      const answer = await data.call<{ message: string }>('PUT', '/api/data/update-data', {
        token: data.adminToken,
        body,
      });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
  });

  it('accepts only our own media URLs as the logo', async () => {
    const { _id } = await firstRecord();
    for (const bad of [
      'https://evil.example/logo.png',
      'javascript:alert(1)',
      '/api/media/x/logo.png',
      null,
    ]) {
      const answer = await data.call<{ message: string }>('PUT', '/api/data/update-data', {
        token: data.adminToken,
        body: { id: _id, siteName: 'Test Arms', currency: '$', logo: bad },
      });
      expect(answer.status, String(bad)).toBe(400);
      expect(answer.body.message).toMatch(/logo must be an image uploaded to this shop/);
    }
  });

  it('answers 400 for a malformed id and 404 for a record that does not exist', async () => {
    const body = { siteName: 'Test Arms', currency: '$', logo: '' };
    const malformed = await data.call<{ message: string }>('PUT', '/api/data/update-data', {
      token: data.adminToken,
      body: { ...body, id: 'not-an-id' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/id must be the id of a settings record/);
    expect(
      await data.call('PUT', '/api/data/update-data', {
        token: data.adminToken,
        body: { ...body, id: 'ffffffffffffffffffffffff' },
      }),
    ).toMatchObject({ status: 404, body: { message: 'Settings not found' } });
  });
});
