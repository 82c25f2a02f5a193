/**
 * Adds `<link rel="preload">` with these attributes to the page's head: the browser starts the download now,
 * and the element or script that asks for the same URL later takes the answer over.
 */
export function addPreloadLink(attributes: Record<string, string>): void {
  const link = document.createElement('link');
  link.rel = 'preload';
  for (const [name, value] of Object.entries(attributes)) link.setAttribute(name, value);
  document.head.append(link);
}
