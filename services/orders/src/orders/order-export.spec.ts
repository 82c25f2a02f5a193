import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { NEW_ORDER_STATE } from '@shop/contracts';
import { Types } from 'mongoose';
import { describe, expect, it } from 'vitest';
import { EXPORT_HEADER, exportCsvWriter, exportRow, inertCell } from './order-export';
import type { OrderRecord } from './order.schema';

function storedOrder(fields: Partial<OrderRecord> = {}): OrderRecord {
  const placed = new Date('2026-11-20T10:00:00.000Z');
  return {
    _id: new Types.ObjectId('65a1f0c2e4b0a1b2c3d4e5f6'),
    user: '65a1f0c2e4b0a1b2c3d4e5f7',
    orderItems: [
      { _id: 'p1', name: 'Glock 19', quantity: 2, price: 599.99, image: '' },
      { _id: 'p2', name: 'Magazine', quantity: 1, price: 25.5, image: '' },
    ],
    shippingAddress: {
      fullName: 'Ada Lovelace',
      address: '12 Analytical Row',
      city: 'London',
      country: 'United Kingdom',
      phoneNumber: '020 7946 0958',
    },
    paymentMethod: 'cashapp',
    itemsPrice: 1225.48,
    taxPrice: 0,
    discount: 0,
    shippingPrice: 0,
    totalPrice: 1225.48,
    ...NEW_ORDER_STATE,
    refunds: [],
    deletedAt: null,
    stockRelease: 'none',
    createdAt: placed,
    updatedAt: placed,
    ...fields,
  };
}

/** The bytes the export writes for `orders`, as text (its byte order mark kept as U+FEFF). */
async function csvOf(orders: OrderRecord[]): Promise<string> {
  const writer = exportCsvWriter();
  const [written] = await Promise.all([
    buffer(writer),
    pipeline(Readable.from(orders.map(exportRow)), writer),
  ]);
  return written.toString('utf8');
}

describe('inertCell', () => {
  it.each([
    '=HYPERLINK("http://evil.example","click")',
    '+1+cmd|calc',
    '-2+3',
    '@SUM(A1:A2)',
    '\t=1',
    '\r=1',
  ])('puts a quote before %j, which a spreadsheet would run', (value) => {
    expect(inertCell(value)).toBe(`'${value}`);
  });

  it.each(['Ada Lovelace', '12 Analytical Row', '1225.48', '', "O'Brien", 'a=b'])(
    'leaves %j as it is',
    (value) => {
      expect(inertCell(value)).toBe(value);
    },
  );
});

describe('the export', () => {
  it('writes a header row, then one row per order, with CRLF line ends after a byte order mark', async () => {
    const csv = await csvOf([storedOrder()]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(EXPORT_HEADER.join(','));
    expect(lines[1]).toBe(
      '65a1f0c2e4b0a1b2c3d4e5f6,2026-11-20T10:00:00.000Z,65a1f0c2e4b0a1b2c3d4e5f7,Ada Lovelace,12 Analytical Row,' +
        'London,United Kingdom,020 7946 0958,2 x Glock 19; 1 x Magazine,3,1225.48,0.00,0.00,0.00,1225.48,cashapp,' +
        'Not paid,,no,,,0.00',
    );
    expect(lines.slice(2)).toEqual(['']);
  });

  for (const { name, shippingAddress, written } of [
    {
      name: 'quotes a field with a comma, a quote or a line break, doubling its quotes (RFC 4180)',
      shippingAddress: {
        fullName: 'Ann "Annie" Smith',
        address: 'Flat 2, 10 High St\nBackside',
        city: 'York',
        country: 'United Kingdom',
        phoneNumber: '01904 000000',
      },
      written: ',"Ann ""Annie"" Smith","Flat 2, 10 High St\nBackside",York,',
    },
    {
      name: 'makes every text a shopper typed inert, and only those that need it',
      shippingAddress: {
        fullName: '=HYPERLINK("http://evil.example","Refund")',
        address: '@SUM(1+1)',
        city: '-London',
        country: 'United Kingdom',
        phoneNumber: '+44 20 7946 0958',
      },
      written: `,"'=HYPERLINK(""http://evil.example"",""Refund"")",'@SUM(1+1),'-London,United Kingdom,'+44 20 7946 0958,`,
    },
  ]) {
    it(name, async () => {
      expect(await csvOf([storedOrder({ shippingAddress })])).toContain(written);
    });
  }

  it('shows a paid and delivered order with its dates and amounts to the cent', async () => {
    const paidAt = new Date('2026-11-21T09:30:00.000Z');
    const deliveredAt = new Date('2026-11-22T16:45:00.000Z');
    const csv = await csvOf([
      storedOrder({
        status: 'Paid',
        isPaid: true,
        paidAt,
        isDelivered: true,
        deliveredAt,
        taxPrice: 12.3,
        shippingPrice: 5,
      }),
    ]);
    expect(csv).toContain(
      ',1225.48,0.00,12.30,5.00,1225.48,cashapp,Paid,2026-11-21T09:30:00.000Z,yes,2026-11-22T16:45:00.000Z,,0.00\r\n',
    );
  });

  it("dates a cancelled order's cancellation, beside the payment status it kept", async () => {
    const cancelledAt = new Date('2026-11-23T08:15:00.000Z');
    const csv = await csvOf([storedOrder({ isCancelled: true, cancelledAt })]);
    expect(csv).toContain(',cashapp,Not paid,,no,,2026-11-23T08:15:00.000Z,0.00\r\n');
  });

  it('says what the refunds gave back, in the currency', async () => {
    const csv = await csvOf([storedOrder({ status: 'Paid', isPaid: true, refundedCents: 12_305 })]);
    expect(csv).toContain(',cashapp,Paid,,no,,,123.05\r\n');
  });
});
