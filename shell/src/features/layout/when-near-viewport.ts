/**
 * Resolves once `element` comes into the viewport, and stops watching; at once when there is no element, or
 * where the browser has no IntersectionObserver. `signal` stops the watch early (the promise then stays
 * pending). The footer's code waits on it (footer-slot.tsx), and so does useNearViewport.
 */
export function whenNearViewport(element: Element | null, signal?: AbortSignal): Promise<void> {
  if (!element || typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(element);
    signal?.addEventListener('abort', () => observer.disconnect(), { once: true });
  });
}
