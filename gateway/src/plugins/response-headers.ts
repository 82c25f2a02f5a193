/** Response headers as Node keeps them: lower-case names. */
export type ResponseHeaders = Record<string, string | string[] | number | undefined>;

/** Replaces a response header. */
export function setHeader(headers: ResponseHeaders, name: string, value: string): void {
  headers[name.toLowerCase()] = value;
}

/** Adds a value to a response header, keeping what the upstream already sent. */
export function appendHeader(headers: ResponseHeaders, name: string, value: string): void {
  const key = name.toLowerCase();
  const current = headers[key];
  if (current === undefined || current === '') headers[key] = value;
  else if (listsToken(current, value)) return;
  else if (Array.isArray(current)) headers[key] = [...current, value];
  else headers[key] = `${String(current)}, ${value}`;
}

function listsToken(current: string | string[] | number, token: string): boolean {
  const values = Array.isArray(current) ? current : [String(current)];
  const wanted = token.toLowerCase();
  return values.some((value) => value.split(',').some((part) => part.trim().toLowerCase() === wanted));
}
