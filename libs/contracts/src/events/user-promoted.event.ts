import { z } from 'zod';
import { id } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const USER_PROMOTED = 'user.promoted';

/**
 * An admin made an account an admin. Tokens carry `isAdmin`, so the new rights reach the other
 * services with the user's next token (next sign-in or profile update), not through this event.
 */
export const userPromotedData = z.strictObject({ userId: id('The account made an admin') });

export type UserPromotedEvent = EventEnvelope<typeof USER_PROMOTED, z.infer<typeof userPromotedData>>;
