import { act } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { useEffect, type ComponentType } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';
import { stubApi } from '@shop/ui/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeIntersectionObserver } from './fake-intersection-observer';

let navigate: NavigateFunction | undefined;

/** The main area: says where the page is (after `drawnBy`), and lends the test the router's navigate. */
function Main({ drawnBy }: { drawnBy: string }) {
  const go = useNavigate();
  useEffect(() => {
    navigate = go;
  }, [go]);
  return (
    <main id="main">
      {drawnBy} at {useLocation().pathname}
    </main>
  );
}

/** The footer where the layout has it: after the main area. */
function page(Slot: ComponentType, drawnBy = 'page') {
  return (
    <Provider store={createStore()}>
      <MemoryRouter initialEntries={['/']}>
        <Main drawnBy={drawnBy} />
        <Slot />
      </MemoryRouter>
    </Provider>
  );
}

/**
 * Both slots, loaded afresh: the browser's keeps its footer's code and the page's first move for the page's
 * life (module state), and each test is a page of its own.
 */
async function slots() {
  vi.resetModules();
  return {
    FooterSlot: (await import('../footer-slot')).FooterSlot,
    ServerFooterSlot: (await import('../footer-slot.server')).FooterSlot,
  };
}

/**
 * The server's page in the document, taken over by the browser's tree; answers the server's footer. A browser
 * whose main area differs (`browserDraws`) makes React let the server's HTML go and draw the page again.
 */
async function hydratedPage(errors: unknown[], browserDraws = 'page'): Promise<HTMLElement> {
  const { FooterSlot, ServerFooterSlot } = await slots();
  const container = document.createElement('div');
  container.innerHTML = renderToString(page(ServerFooterSlot));
  document.body.append(container);
  act(() => {
    root = hydrateRoot(container, page(FooterSlot, browserDraws), {
      onRecoverableError: (error) => errors.push(error),
    });
  });
  return container.querySelector('footer')!;
}

/** Lets the slot's lazy import and React's retry of the boundary run. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

let root: Root | undefined;

describe('FooterSlot', () => {
  afterEach(() => {
    act(() => root?.unmount());
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
    FakeIntersectionObserver.reset();
  });

  it("keeps the server's footer as it is, and takes it over only once it comes near the viewport", async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const api = stubApi({ '/site.json': { status: 200, body: { contact: { location: 'Reno, Nevada' } } } });
    const errors: unknown[] = [];
    const drawn = await hydratedPage(errors);
    const container = drawn.parentElement!;
    expect(drawn).not.toBeNull();
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

  it('brings its code on the first move to another screen, which the footer would otherwise hold up', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    stubApi({});
    const errors: unknown[] = [];
    const drawn = await hydratedPage(errors);
    await settle();
    expect(FakeIntersectionObserver.made).toHaveLength(1);

    // Never scrolled to: the move itself brings the footer's code, and completes.
    act(() => void navigate!('/legal'));
    await settle();
    expect(document.querySelector('main')?.textContent).toBe('page at /legal');
    expect(FakeIntersectionObserver.made).toHaveLength(2);
    expect(drawn.isConnected).toBe(true);
    expect(errors).toEqual([]);
  });

  it('brings its code at once when React draws the page again and the server’s footer goes with it', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    stubApi({});
    const errors: unknown[] = [];
    await hydratedPage(errors, 'browser');
    await settle();
    // The server's HTML did not match: React drew the page in the browser, footer included, with no scroll.
    expect(errors).toHaveLength(1);
    expect(document.querySelector('main')?.textContent).toBe('browser at /');
    expect(document.querySelector('footer')).not.toBeNull();
  });

  it('draws the footer at once on a page the browser draws itself', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const container = document.createElement('div');
    document.body.append(container);
    const { createRoot } = await import('react-dom/client');
    const { FooterSlot } = await slots();
    act(() => {
      root = createRoot(container);
      root.render(page(FooterSlot));
    });
    await settle();
    expect(container.querySelector('footer')).not.toBeNull();
  });
});
