import { act } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import type { ComponentType } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { stubApi } from '@shop/ui/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FooterSlot } from '../footer-slot';
import { FooterSlot as ServerFooterSlot } from '../footer-slot.server';
import { FakeIntersectionObserver } from './fake-intersection-observer';

/** The footer where the layout has it: after the main area. */
function page(Slot: ComponentType) {
  return (
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={['/']}>
        <main id="main" />
        <Slot />
      </MemoryRouter>
    </Provider>
  );
}

/** Lets the slot's lazy import and React's retry of the boundary run. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('FooterSlot', () => {
  let root: Root | undefined;
  afterEach(() => {
    act(() => root?.unmount());
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
    FakeIntersectionObserver.reset();
  });

  it("keeps the server's footer as it is, and takes it over only once it comes near the viewport", async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const api = stubApi({ '/site.json': { status: 200, body: { contact: { location: 'Reno, Nevada' } } } });
    const container = document.createElement('div');
    container.innerHTML = renderToString(page(ServerFooterSlot));
    document.body.append(container);
    const drawn = container.querySelector('footer');
    expect(drawn).not.toBeNull();

    const errors: unknown[] = [];
    act(() => {
      root = hydrateRoot(container, page(FooterSlot), { onRecoverableError: (error) => errors.push(error) });
    });
    await settle();
    // Only the slot watches: the footer's code has not run (once it runs, it watches for its contact details).
    expect(FakeIntersectionObserver.made).toHaveLength(1);
    expect(FakeIntersectionObserver.last!.observed).toEqual([drawn]);
    expect(container.querySelector('footer')).toBe(drawn);

    act(() => FakeIntersectionObserver.made[0]!.report(true));
    await settle();
    // Its code came and took the footer over: the footer now watches for itself, and has asked for nothing yet.
    expect(FakeIntersectionObserver.made).toHaveLength(2);
    expect(FakeIntersectionObserver.made[1]!.observed).toEqual([drawn]);
    expect(api.urls()).toEqual([]);

    act(() => FakeIntersectionObserver.made[1]!.report(true));
    await settle();
    expect(api.urls()).toEqual(['/site.json']);
    // Taken over, not drawn again: the same element, now with the contact details, and no hydration mismatch.
    expect(container.querySelector('footer')).toBe(drawn);
    expect(drawn!.textContent).toContain('Reno, Nevada');
    expect(errors).toEqual([]);
  });

  it('draws the footer at once on a page the browser draws itself', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const container = document.createElement('div');
    document.body.append(container);
    const { createRoot } = await import('react-dom/client');
    act(() => {
      root = createRoot(container);
      root.render(page(FooterSlot));
    });
    await settle();
    expect(container.querySelector('footer')).not.toBeNull();
  });
});
