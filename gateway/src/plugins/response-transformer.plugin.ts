import { z } from 'zod';
import type { ResponseHeaders } from './response-headers';

// Kong writes each header as one `name:value` string, split at the first colon (values such as a CSP's
// `data:` keep theirs).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const headerWithValue = z.string().refine(
  (entry) => {
    const colon = entry.indexOf(':');
    return colon > 0 && HEADER_NAME.test(entry.slice(0, colon).trim());
  },
  { message: 'a header is written as "Name:value"' },
);
const headerName = z.string().regex(HEADER_NAME, { message: 'not a header name' });
const renamed = z.string().refine(
  (entry) => {
    const [from, to, ...rest] = entry.split(':');
    return rest.length === 0 && HEADER_NAME.test(from ?? '') && HEADER_NAME.test(to ?? '');
  },
  { message: 'a rename is written as "Old-Name:New-Name"' },
);
// The body transformations would make the gateway buffer every answer: not implemented here.
const noJson = z
  .array(z.string())
  .max(0, { message: 'JSON body transformations are not implemented by the local gateway' })
  .default([]);

const section = <T extends z.ZodType>(entry: T) =>
  z.strictObject({ headers: z.array(entry).default([]), json: noJson, json_types: noJson }).prefault({});

/** Kong's `response-transformer` config, headers only. */
export const responseTransformerConfigSchema = z.strictObject({
  remove: z.strictObject({ headers: z.array(headerName).default([]), json: noJson }).prefault({}),
  rename: z.strictObject({ headers: z.array(renamed).default([]), json: noJson }).prefault({}),
  replace: section(headerWithValue),
  add: section(headerWithValue),
  append: section(headerWithValue),
});
export type ResponseTransformerConfig = z.infer<typeof responseTransformerConfigSchema>;

type Header = readonly [name: string, value: string];

function splitHeader(entry: string): Header {
  const colon = entry.indexOf(':');
  return [entry.slice(0, colon).trim().toLowerCase(), entry.slice(colon + 1).trim()];
}

/**
 * Runtime of the `response-transformer` plugin, in Kong's order: remove, rename, replace (only headers
 * present), add (only headers absent), append (always, as one more value).
 */
export class ResponseTransformerPlugin {
  private readonly remove: readonly string[];
  private readonly rename: readonly Header[];
  private readonly replace: readonly Header[];
  private readonly add: readonly Header[];
  private readonly append: readonly Header[];

  constructor(config: ResponseTransformerConfig) {
    this.remove = config.remove.headers.map((name) => name.toLowerCase());
    this.rename = config.rename.headers.map((entry) => {
      const [from = '', to = ''] = entry.toLowerCase().split(':');
      return [from, to] as const;
    });
    this.replace = config.replace.headers.map(splitHeader);
    this.add = config.add.headers.map(splitHeader);
    this.append = config.append.headers.map(splitHeader);
  }

  /** Header-filter phase: rewrites the answer's headers (proxied or the gateway's own). */
  headerFilter(headers: ResponseHeaders): void {
    for (const name of this.remove) delete headers[name];
    for (const [from, to] of this.rename) {
      if (headers[from] === undefined) continue;
      headers[to] = headers[from];
      delete headers[from];
    }
    for (const [name, value] of this.replace) if (headers[name] !== undefined) headers[name] = value;
    for (const [name, value] of this.add) if (headers[name] === undefined) headers[name] = value;
    for (const [name, value] of this.append) {
      const current = headers[name];
      if (current === undefined) headers[name] = value;
      else headers[name] = [...(Array.isArray(current) ? current : [String(current)]), value];
    }
  }
}
