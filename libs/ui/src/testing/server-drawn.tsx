import { act } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { onTestFinished } from 'vitest';

/** A page the server drew, in the document, whose code has not run yet. */
export interface ServerDrawn {
  container: HTMLElement;
  /** Lets React take the server's HTML over, as the page's code does once it arrives. */
  hydrate: () => Promise<void>;
}

/**
 * Draws `page` as the page server does and puts the HTML in the document, for tests of what a shopper can do
 * before and after the code takes it over. Unmounted and removed when the test ends.
 */
export function drawnByServer(page: ReactElement): ServerDrawn {
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  let unmount = () => undefined as void;
  onTestFinished(() => {
    act(() => unmount());
    container.remove();
  });
  return {
    container,
    hydrate: async () => {
      await act(async () => {
        const root = hydrateRoot(container, page);
        unmount = () => root.unmount();
      });
    },
  };
}
