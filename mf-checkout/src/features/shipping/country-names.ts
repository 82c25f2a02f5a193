import { getNames, registerLocale } from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json';

// Only the English names are registered (and bundled): the shop's screens are in English.
registerLocale(english);

/** The world's countries and territories (ISO 3166-1, maintained by i18n-iso-countries), in English, A to Z. */
export const COUNTRY_NAMES: readonly string[] = Object.values(getNames('en', { select: 'official' })).sort(
  (a, b) => a.localeCompare(b, 'en'),
);
