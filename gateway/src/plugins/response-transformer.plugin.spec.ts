import { describe, expect, it } from 'vitest';
import type { ResponseHeaders } from './response-headers';
import { ResponseTransformerPlugin, responseTransformerConfigSchema } from './response-transformer.plugin';

const plugin = (config: unknown): ResponseTransformerPlugin =>
  new ResponseTransformerPlugin(responseTransformerConfigSchema.parse(config));

describe('response-transformer', () => {
  it('adds a header only when the answer lacks it', () => {
    const transformer = plugin({ add: { headers: ['Content-Security-Policy:default-src data:', 'X-A:1'] } });
    const headers: ResponseHeaders = { 'x-a': 'from the service' };
    transformer.headerFilter(headers);
    // Split at the first colon only: the value keeps its own.
    expect(headers).toEqual({ 'x-a': 'from the service', 'content-security-policy': 'default-src data:' });
  });

  it('replaces only headers present, appends always, in Kong order after remove and rename', () => {
    const transformer = plugin({
      remove: { headers: ['X-Powered-By'] },
      rename: { headers: ['X-Old:X-New'] },
      replace: { headers: ['X-New:replaced', 'X-Absent:never'] },
      append: { headers: ['Vary:Origin', 'X-Trace:1'] },
    });
    const headers: ResponseHeaders = { 'x-powered-by': 'Express', 'x-old': 'old', vary: 'Accept' };
    transformer.headerFilter(headers);
    expect(headers).toEqual({ 'x-new': 'replaced', vary: ['Accept', 'Origin'], 'x-trace': '1' });
  });

  it('refuses what it does not implement and malformed entries', () => {
    expect(() => plugin({ add: { json: ['key:value'] } })).toThrow(/JSON body transformations/);
    expect(() => plugin({ add: { headers: ['no colon here'] } })).toThrow(/Name:value/);
    expect(() => plugin({ add: { headers: [':empty name'] } })).toThrow(/Name:value/);
    expect(() => plugin({ colour: 'blue' })).toThrow();
  });
});
