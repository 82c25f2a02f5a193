import { afterEach, describe, expect, it } from 'vitest';
import { earlyRemoteEntryPlugin } from './early-remote-entry.runtime-plugin';
import { startRemoteScript, takeStartedRemoteScript } from './early-remote-scripts';

const ENTRY = 'https://shop.example/remotes/catalog/0.2.0/remoteEntry.js';

const scriptsFor = (href: string) =>
  [...document.head.querySelectorAll('script')].filter((script) => script.src === href);

/** The plugin's hook, called as the federation runtime calls it (only the fields it reads). */
function loadEntry(entry: string, entryGlobalName: string): Promise<unknown> {
  const hook = earlyRemoteEntryPlugin().loadEntry!;
  return Promise.resolve(hook({ remoteInfo: { entry, entryGlobalName } } as Parameters<typeof hook>[0]));
}

describe('remote scripts run on arrival', () => {
  afterEach(() => {
    takeStartedRemoteScript(ENTRY);
    document.head.replaceChildren();
    delete (globalThis as Record<string, unknown>)['catalog'];
  });

  it('adds one async, high-priority script per file, however often it is asked for', () => {
    startRemoteScript(ENTRY);
    startRemoteScript(ENTRY);
    const [script, ...others] = scriptsFor(ENTRY);
    expect(others).toEqual([]);
    expect(script?.async).toBe(true);
    expect(script?.getAttribute('fetchpriority')).toBe('high');
  });

  it('hands the container the entry defined to the federation runtime, once', async () => {
    startRemoteScript(ENTRY);
    const container = { get: () => undefined, init: () => undefined };
    (globalThis as Record<string, unknown>)['catalog'] = container;
    const loaded = loadEntry(ENTRY, 'catalog');
    scriptsFor(ENTRY)[0]!.dispatchEvent(new Event('load'));
    await expect(loaded).resolves.toBe(container);
    // Run, the element is gone, as the runtime's own are.
    expect(scriptsFor(ENTRY)).toEqual([]);
    // A second load (a retry) is the runtime's own.
    await expect(loadEntry(ENTRY, 'catalog')).resolves.toBeUndefined();
  });

  it('leaves a failed entry to the runtime, with no script element left behind to wait on', async () => {
    startRemoteScript(ENTRY);
    const loaded = loadEntry(ENTRY, 'catalog');
    scriptsFor(ENTRY)[0]!.dispatchEvent(new Event('error'));
    await expect(loaded).resolves.toBeUndefined();
    expect(scriptsFor(ENTRY)).toEqual([]);
  });

  it('does nothing for an entry the page did not start', async () => {
    await expect(loadEntry(ENTRY, 'catalog')).resolves.toBeUndefined();
    expect(scriptsFor(ENTRY)).toEqual([]);
  });
});
