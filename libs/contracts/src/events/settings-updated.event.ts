import type { EventEnvelope } from './event-envelope';

export const SETTINGS_UPDATED = 'settings.updated';

/** An admin changed the website settings (site name, currency, logo). */
export type SettingsUpdatedEvent = EventEnvelope<
  typeof SETTINGS_UPDATED,
  { settingsId: string; siteName: string; currency: string; logo: string }
>;
