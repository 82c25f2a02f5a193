import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from './rate-limiter';

function clock(start: number): { now: () => number; advance(ms: number): void } {
  let current = start;
  return { now: () => current, advance: (ms) => (current += ms) };
}

// 10 seconds into a minute window.
const T0 = Date.UTC(2026, 0, 1, 12, 0, 10);

describe('FixedWindowRateLimiter', () => {
  it('lets `limit` requests through per window, then refuses', () => {
    const time = clock(T0);
    const limiter = new FixedWindowRateLimiter({ minute: 3 }, time.now);
    expect([1, 2, 3].map(() => limiter.take('1.1.1.1').allowed)).toEqual([true, true, true]);
    const refused = limiter.take('1.1.1.1');
    expect(refused.allowed).toBe(false);
    expect(refused.headers['Retry-After']).toBe('50');
  });

  it('counts each identifier separately', () => {
    const limiter = new FixedWindowRateLimiter({ minute: 1 }, clock(T0).now);
    expect(limiter.take('1.1.1.1').allowed).toBe(true);
    expect(limiter.take('1.1.1.1').allowed).toBe(false);
    expect(limiter.take('2.2.2.2').allowed).toBe(true);
  });

  it('starts afresh when the window rolls over', () => {
    const time = clock(T0);
    const limiter = new FixedWindowRateLimiter({ minute: 1 }, time.now);
    limiter.take('a');
    expect(limiter.take('a').allowed).toBe(false);
    time.advance(50_000);
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('reports Kong headers: remaining after this request, and the most restrictive window', () => {
    const limiter = new FixedWindowRateLimiter({ minute: 5, hour: 100 }, clock(T0).now);
    const first = limiter.take('a');
    expect(first.headers).toEqual({
      'X-RateLimit-Limit-Minute': '5',
      'X-RateLimit-Remaining-Minute': '4',
      'X-RateLimit-Limit-Hour': '100',
      'X-RateLimit-Remaining-Hour': '99',
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '4',
      'RateLimit-Reset': '50',
    });
  });

  it('does not count refused requests, and reports the longest exhausted window to wait for', () => {
    const time = clock(T0);
    const limiter = new FixedWindowRateLimiter({ second: 1, minute: 2 }, time.now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false); // second used up
    time.advance(1000);
    expect(limiter.take('a').allowed).toBe(true); // minute now at 2 (the refusal did not count)
    time.advance(1000);
    const refused = limiter.take('a');
    expect(refused.allowed).toBe(false);
    expect(refused.headers['X-RateLimit-Remaining-Minute']).toBe('0');
    expect(refused.headers['RateLimit-Limit']).toBe('2');
    expect(refused.headers['Retry-After']).toBe('48');
  });

  it('forgets expired windows so memory follows recent clients', () => {
    const time = clock(T0);
    const limiter = new FixedWindowRateLimiter({ second: 5 }, time.now);
    for (let i = 0; i < 100; i++) limiter.take(`client-${i}`);
    expect(limiter.size).toBe(100);
    time.advance(11_000);
    limiter.take('late');
    expect(limiter.size).toBe(1);
  });

  it('needs at least one limit', () => {
    expect(() => new FixedWindowRateLimiter({})).toThrow(/at least one/);
  });
});
