import { z } from 'zod';
import { id, text } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const SETTINGS_UPDATED = 'settings.updated';

/** An admin changed the website settings (site name, currency, logo). */
export const settingsUpdatedData = z.strictObject({
  settingsId: id('The settings document'),
  siteName: text(),
  currency: text(),
  logo: text(),
});

export type SettingsUpdatedEvent = EventEnvelope<
  typeof SETTINGS_UPDATED,
  z.infer<typeof settingsUpdatedData>
>;
