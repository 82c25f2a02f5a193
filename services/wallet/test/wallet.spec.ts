import { ADMIN_ACTION, type AdminActionData, WALLET_UPDATED, type Wallet } from '@shop/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@shop/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../src/app.module';
import { type WalletConfig, walletConfigSchema } from '../src/config/wallet.config';
import { WalletsService } from '../src/wallets/wallets.service';

const qrCode = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1712345678-btc-qr.png';
let wallet: ServiceUnderTest<WalletConfig>;

beforeAll(async () => {
  wallet = await startServiceUnderTest({
    name: 'wallet',
    configSchema: walletConfigSchema,
    module: (context) => AppModule.register(context),
    events: [WALLET_UPDATED, ADMIN_ACTION],
  });
});

afterAll(async () => {
  await wallet?.close();
});

const allWallets = async () => (await wallet.call<Wallet[]>('GET', '/api/wallet/all-wallets')).body;

describe('GET api/wallet/all-wallets', () => {
  it('answers a seeded wallet for each payment method, publicly, in the payment screen order', async () => {
    const { status, body } = await wallet.call<Wallet[]>('GET', '/api/wallet/all-wallets');
    expect(status).toBe(200);
    expect(body).toEqual(
      ['bitcoin', 'apple Pay', 'cashapp'].map((paymentMethod) => ({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        paymentMethod,
        paymentDetails: '',
        qrCode: '',
      })),
    );
  });

  it('seeds each wallet only once and never overwrites one', async () => {
    await wallet.call('PUT', '/api/wallet/update-wallet', {
      token: wallet.adminToken,
      body: { coin: 'cashapp', walletId: '$sentinel', qrCode: '' },
    });
    await wallet.app.get(WalletsService).onApplicationBootstrap();
    const wallets = await allWallets();
    expect(wallets).toHaveLength(3);
    expect(wallets.find((w) => w.paymentMethod === 'cashapp')?.paymentDetails).toBe('$sentinel');
  });
});

describe('PUT api/wallet/update-wallet', () => {
  it('lets an admin set the payment details and QR code, and publishes wallet.updated', async () => {
    const { status, body } = await wallet.call<Wallet>('PUT', '/api/wallet/update-wallet', {
      token: wallet.adminToken,
      body: { coin: 'bitcoin', walletId: '  bc1qexampleaddress0000 ', qrCode },
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      _id: expect.any(String),
      paymentMethod: 'bitcoin',
      paymentDetails: 'bc1qexampleaddress0000',
      qrCode,
    });
    expect((await allWallets())[0]).toEqual(body);
    const event = await wallet.waitForEvent((e) => (e.data as { qrCode: string }).qrCode === qrCode);
    expect(event).toMatchObject({
      type: 'wallet.updated',
      data: {
        walletId: body._id,
        paymentMethod: 'bitcoin',
        paymentDetails: 'bc1qexampleaddress0000',
        qrCode,
      },
    });
  });

  it('accepts an empty QR code', async () => {
    const { status, body } = await wallet.call<Wallet>('PUT', '/api/wallet/update-wallet', {
      token: wallet.adminToken,
      body: { coin: 'apple Pay', walletId: 'pay@sentinel.example', qrCode: '' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      paymentMethod: 'apple Pay',
      paymentDetails: 'pay@sentinel.example',
      qrCode: '',
    });
  });

  it('answers 401 without a token and 403 to a customer, changing nothing', async () => {
    const before = await allWallets();
    await wallet.expectAdminOnly('PUT', '/api/wallet/update-wallet', {
      body: { coin: 'bitcoin', walletId: 'attacker-wallet', qrCode: '' },
    });
    expect(await allWallets()).toEqual(before);
  });

  it('refuses an unknown coin, empty or too long details and foreign QR codes with 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ coin: 'PayPal' }, /coin must be one of: bitcoin, apple Pay, cashapp/],
      [{ coin: undefined }, /coin must be one of/],
      [{ walletId: '  ' }, /walletId is required/],
      [{ walletId: 'x'.repeat(201) }, /walletId must be shorter than or equal to 200 characters/],
      [{ walletId: { $ne: '' } }, /walletId must be a string/],
      [{ qrCode: 'https://evil.example/qr.png' }, /qrCode must be an image uploaded to this shop/],
      [
        { qrCode: '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/../../x' },
        /qrCode must be an image uploaded to this shop/,
      ],
    ];
    const before = await allWallets();
    for (const [change, message] of cases) {
      const body = { coin: 'bitcoin', walletId: 'bc1qvalid', qrCode: '', ...change };
      const answer = await wallet.call<{ message: string }>('PUT', '/api/wallet/update-wallet', {
        token: wallet.adminToken,
        body,
      });
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
    expect(await allWallets()).toEqual(before);
  });
});

describe('the audit trail of wallets', () => {
  it('records who changed a wallet, with its details before and after', async () => {
    const adminId = '7'.repeat(24);
    const token = await wallet.tokens.sign({ isAdmin: true, sub: adminId });
    const before = (await allWallets()).find((w) => w.paymentMethod === 'apple Pay')!;
    const answer = await wallet.call('PUT', '/api/wallet/update-wallet', {
      token,
      body: { coin: 'apple Pay', walletId: 'pay@audited.example', qrCode },
    });
    expect(answer.status).toBe(200);
    const event = await wallet.waitForEvent(
      (e) => e.type === ADMIN_ACTION && (e.data as AdminActionData).actorId === adminId,
    );
    expect(event.data).toEqual({
      actorId: adminId,
      action: 'wallet.updated',
      target: { type: 'wallet', id: before._id, label: 'apple Pay' },
      before: { paymentDetails: before.paymentDetails, qrCode: before.qrCode },
      after: { paymentDetails: 'pay@audited.example', qrCode },
    });
  });
});
