/**
 * Resolves once `element` comes into the viewport; at once when there is no element, or where the browser has
 * no IntersectionObserver (the footer-slot.tsx deferral; useNearViewport is the same watch inside a component).
 */
export function whenNearViewport(element: Element | null): Promise<void> {
  if (!element || typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(element);
  });
}
