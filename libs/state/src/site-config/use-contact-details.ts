import { useEffect, useState } from 'react';

/**
 * The shop's contact details, from the shell's per-environment `site.json` (a ConfigMap in Kubernetes),
 * read once per page for every screen that shows them (the footer, the terms).
 */
export interface ContactDetails {
  location: string;
  email: string;
}

export const SITE_CONFIG_URL = '/site.json';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Reads `{ contact: { location, email } }`; anything missing or malformed is left out, never invented. */
export function parseContactDetails(raw: unknown): Partial<ContactDetails> {
  const contact = (raw as { contact?: Record<string, unknown> } | null)?.contact;
  if (typeof contact !== 'object' || contact === null) return {};
  const details: Partial<ContactDetails> = {};
  if (typeof contact['location'] === 'string' && contact['location'].trim() !== '')
    details.location = contact['location'].trim();
  if (typeof contact['email'] === 'string' && EMAIL.test(contact['email'].trim()))
    details.email = contact['email'].trim();
  return details;
}

let request: Promise<Partial<ContactDetails>> | undefined;

function fetchContactDetails(): Promise<Partial<ContactDetails>> {
  request ??= fetch(SITE_CONFIG_URL, { cache: 'no-store', headers: { Accept: 'application/json' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`${SITE_CONFIG_URL} answered ${response.status}`);
      return parseContactDetails(await response.json());
    })
    .catch(() => {
      // Not kept: the next page that shows a footer asks again.
      request = undefined;
      return {};
    });
  return request;
}

/** The contact details, empty until `site.json` has been read (a footer and terms sit below the fold). */
export function useContactDetails(): Partial<ContactDetails> {
  const [details, setDetails] = useState<Partial<ContactDetails>>({});
  useEffect(() => {
    let current = true;
    void fetchContactDetails().then((loaded) => {
      if (current) setDetails(loaded);
    });
    return () => {
      current = false;
    };
  }, []);
  return details;
}
