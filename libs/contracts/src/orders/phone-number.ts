import { ORDER_LIMITS } from './order';

/**
 * A shipping phone number: digits with the usual separators (space, `(`, `)`, `.`, `-`), an optional
 * leading `+`, and at least five digits. The orders service validates `shippingAddress.phoneNumber`
 * with it and the shipping form checks it before sending, so both refuse the same numbers. Written
 * without a lookahead: it is published in the orders OpenAPI document, and generators of test data
 * (Schemathesis) cannot produce strings for a lookahead in any time.
 */
export const PHONE_NUMBER_PATTERN = /^\+?[ ().-]*(?:\d[ ().-]*){5,}$/;

/** Whether `text`, trimmed as the server trims it, is a phone number the orders service accepts. */
export function isPhoneNumber(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length <= ORDER_LIMITS.phoneNumber && PHONE_NUMBER_PATTERN.test(trimmed);
}
