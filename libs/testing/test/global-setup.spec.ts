import mongoose from 'mongoose';
import { connect } from 'nats';
import { describe, expect, inject, it } from 'vitest';
import { mongoUrlFor, uniqueDbName } from '../src/database-names.util.js';

describe('global setup', () => {
  it('hands the run-wide MongoDB to tests by inject() and TEST_MONGO_URL', async () => {
    const url = inject('mongoUrl');
    expect(process.env['TEST_MONGO_URL']).toBe(url);
    const db = await mongoose.createConnection(mongoUrlFor(url, uniqueDbName('setup'))).asPromise();
    try {
      expect(await db.db!.admin().ping()).toMatchObject({ ok: 1 });
    } finally {
      await db.close();
    }
  });

  it('hands the run-wide NATS to tests by inject() and TEST_NATS_URL', async () => {
    const url = inject('natsUrl');
    expect(process.env['TEST_NATS_URL']).toBe(url);
    const nc = await connect({ servers: url });
    try {
      expect(
        (await nc.jetstreamManager().then((jsm) => jsm.getAccountInfo())).streams,
      ).toBeGreaterThanOrEqual(0);
    } finally {
      await nc.close();
    }
  });
});
