import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNearViewport } from '../use-near-viewport';

/** Stands in for the browser's IntersectionObserver: the test says when the element comes into view. */
class FakeIntersectionObserver {
  static last: FakeIntersectionObserver | undefined;
  readonly observed: Element[] = [];
  disconnected = false;
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.last = this;
  }
  observe(element: Element) {
    this.observed.push(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  report(isIntersecting: boolean) {
    const entries = this.observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry);
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}

function Probe() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  return <div ref={ref}>{near ? 'near' : 'far'}</div>;
}

describe('useNearViewport', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeIntersectionObserver.last = undefined;
  });

  it('turns true once the element comes into view, and stops watching', () => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    render(<Probe />);
    const observer = FakeIntersectionObserver.last!;
    expect(screen.getByText('far')).toBeInTheDocument();

    act(() => observer.report(false));
    expect(screen.getByText('far')).toBeInTheDocument();

    act(() => observer.report(true));
    expect(screen.getByText('near')).toBeInTheDocument();
    expect(observer.disconnected).toBe(true);
  });

  it('is true at once where the browser cannot tell', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Probe />);
    expect(screen.getByText('near')).toBeInTheDocument();
  });
});
