import { createContext, use } from 'react';

/**
 * On the shell's page server (docs/decisions/0020): where the remote's server-rendered screen goes. The
 * shell renders `marker` in the screen's place and the page server puts the remote's HTML there; without a
 * marker the screen is drawn in the browser. A marker still to come (a remote slower than the layout: the
 * page is streamed) suspends the screen's place until it settles. Absent in the browser.
 */
export interface ServerFragment {
  marker: string | null | Promise<string | null>;
}

export const ServerFragmentContext = createContext<ServerFragment | undefined>(undefined);

/** Thrown in the screen's place when there is no server render of it: React leaves that part to the browser. */
export class DrawnInBrowser extends Error {
  constructor() {
    super('This screen is drawn in the browser');
  }
}

/** The screen's place on the server: the marker the page server replaces, or the browser's to draw. */
export function FragmentSlot({ fragment }: { fragment: ServerFragment }) {
  const marker = fragment.marker instanceof Promise ? use(fragment.marker) : fragment.marker;
  if (marker === null) throw new DrawnInBrowser();
  return marker;
}
