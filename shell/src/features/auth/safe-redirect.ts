/** The redirect target of ?redirect=, kept on this site (an absolute or protocol-relative URL becomes '/'). */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  return value;
}
