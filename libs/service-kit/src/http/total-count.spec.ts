import { describe, expect, it } from 'vitest';
import { withTotalCount } from './total-count';

describe('withTotalCount', () => {
  it('answers the items and sets X-Total-Count to the total of every page', () => {
    const headers: [string, string][] = [];
    const reply = { header: (name: string, value: string) => headers.push([name, value]) };
    expect(withTotalCount(reply, ['a', 'b'], 12)).toEqual(['a', 'b']);
    expect(headers).toEqual([['X-Total-Count', '12']]);
  });
});
