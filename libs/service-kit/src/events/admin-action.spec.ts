import { Types } from 'mongoose';
import { describe, expect, it } from 'vitest';
import {
  LONGEST_AUDITED_TEXT,
  adminActionEvent,
  auditValue,
  changedFields,
  stillHolding,
} from './admin-action';

const actor = { id: 'a'.repeat(24), isAdmin: true, issuedAt: new Date() };

describe('the audit values of an admin action', () => {
  it('keeps only the fields that changed, an absent field counting as null', () => {
    expect(
      changedFields(
        { name: 'Bag', price: 10, image: ['/a.png'], lowStockThreshold: null, brand: 'X' },
        { name: 'Bag', price: 12, image: ['/a.png', '/b.png'], brand: 'X' },
      ),
    ).toEqual({
      before: { price: 10, image: ['/a.png'] },
      after: { price: 12, image: ['/a.png', '/b.png'] },
    });
  });

  it('writes dates as ISO text, ids as hex and a long text as its start and length', () => {
    const id = new Types.ObjectId();
    const long = 'x'.repeat(LONGEST_AUDITED_TEXT + 1);
    expect(
      auditValue({ at: new Date('2026-11-29T08:00:00Z'), id, note: long, short: 'y'.repeat(500) }),
    ).toEqual({
      at: '2026-11-29T08:00:00.000Z',
      id: id.toHexString(),
      note: `${'x'.repeat(120)}… (${LONGEST_AUDITED_TEXT + 1} characters)`,
      short: 'y'.repeat(500),
    });
  });

  it('keeps every field of a created or deleted record, and only the changes of an update', () => {
    const target = { type: 'product' as const, id: 'p', label: 'Bag' };
    const created = adminActionEvent({
      actor,
      action: 'product.created',
      target,
      before: null,
      after: { a: 1 },
    });
    expect(created).toMatchObject({ type: 'admin.action', data: { before: null, after: { a: 1 } } });
    const updated = adminActionEvent({
      actor,
      action: 'product.updated',
      target,
      before: { a: 1, b: 2 },
      after: { a: 1, b: 3 },
    });
    expect(updated.data).toEqual({
      actorId: actor.id,
      action: 'product.updated',
      target,
      before: { b: 2 },
      after: { b: 3 },
    });
  });

  it('matches a document only while it holds what was read, a missing field as null', () => {
    expect(stillHolding({ name: 'Bag', logo: undefined, count: 0 })).toEqual({
      name: 'Bag',
      logo: null,
      count: 0,
    });
  });
});
