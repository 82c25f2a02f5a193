import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import { describe, expect, it, vi } from 'vitest';
import { remoteFallbackPlugin } from './remote-fallback.runtime-plugin';
import { RemoteUnavailable } from './remote-unavailable';

const origin = {} as ModuleFederation;

describe('remote fallback runtime plugin', () => {
  it('answers a stand-in screen when a remote module cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const plugin = remoteFallbackPlugin();
    const answer = await plugin.errorLoadRemote?.({
      id: 'catalog/HomePage',
      error: new Error('down'),
      from: 'runtime',
      lifecycle: 'onLoad',
      origin,
    });
    expect(answer).toEqual({ default: RemoteUnavailable, remoteUnavailable: true });
  });

  it('lets earlier stages fail, so nothing is mistaken for a manifest or a container', async () => {
    const plugin = remoteFallbackPlugin();
    for (const lifecycle of ['beforeRequest', 'afterResolve', 'beforeLoadShare'] as const) {
      expect(
        await plugin.errorLoadRemote?.({
          id: 'x',
          error: new Error('down'),
          from: 'runtime',
          lifecycle,
          origin,
        }),
      ).toBeUndefined();
    }
  });
});
