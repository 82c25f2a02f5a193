import { startTransition, type ReactNode } from 'react';
import { hydrateRoot, type HydrationOptions } from 'react-dom/client';

/**
 * Takes a server-rendered page over (hydration) as a transition: React then hydrates in slices of about 5 ms
 * and lets the browser run between them (a press, a paint, the next picture's decoding), instead of one task
 * as long as the whole tree's render, which the page's Total Blocking Time counted (docs/performance.md,
 * "Hydration in slices"). A press on a part not taken over yet hydrates that part first.
 */
export function takeOver(container: Element, app: ReactNode, options: HydrationOptions): void {
  startTransition(() => {
    hydrateRoot(container, app, options);
  });
}
