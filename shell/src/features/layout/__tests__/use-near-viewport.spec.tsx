import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNearViewport } from '../use-near-viewport';
import { whenNearViewport } from '../when-near-viewport';
import { FakeIntersectionObserver } from './fake-intersection-observer';

function Probe() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  return <div ref={ref}>{near ? 'near' : 'far'}</div>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeIntersectionObserver.reset();
});

describe('useNearViewport', () => {
  it('turns true once the element comes into view, and stops watching', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    render(<Probe />);
    const observer = FakeIntersectionObserver.last!;
    expect(screen.getByText('far')).toBeInTheDocument();

    act(() => observer.report(false));
    expect(screen.getByText('far')).toBeInTheDocument();

    await act(async () => observer.report(true));
    expect(screen.getByText('near')).toBeInTheDocument();
    expect(observer.disconnected).toBe(true);
  });

  it('stops watching when the element goes before it came into view', () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    const { unmount } = render(<Probe />);
    unmount();
    expect(FakeIntersectionObserver.last!.disconnected).toBe(true);
  });

  it('is true at once where the browser cannot tell', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(screen.getByText('near')).toBeInTheDocument();
  });
});

describe('whenNearViewport', () => {
  it('resolves once the element comes into view, and stops watching then', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    let near = false;
    void whenNearViewport(document.createElement('footer')).then(() => (near = true));
    const observer = FakeIntersectionObserver.last!;
    observer.report(false);
    await Promise.resolve();
    expect([near, observer.disconnected]).toEqual([false, false]);
    observer.report(true);
    await Promise.resolve();
    expect([near, observer.disconnected]).toEqual([true, true]);
  });

  it('resolves at once with no element to watch', async () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    await whenNearViewport(null);
    expect(FakeIntersectionObserver.made).toEqual([]);
  });
});
