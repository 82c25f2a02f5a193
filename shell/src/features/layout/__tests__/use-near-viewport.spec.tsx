import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNearViewport } from '../use-near-viewport';
import { FakeIntersectionObserver } from './fake-intersection-observer';

function Probe() {
  const ref = useRef<HTMLDivElement>(null);
  const near = useNearViewport(ref);
  return <div ref={ref}>{near ? 'near' : 'far'}</div>;
}

describe('useNearViewport', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeIntersectionObserver.reset();
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
