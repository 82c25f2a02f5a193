import { describe, expect, it } from 'vitest';
import { truncateWords } from './truncate-words';

describe('truncateWords', () => {
  it('keeps the first ten words and adds " ....." when the text is longer', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    expect(truncateWords(text, 10)).toBe('one two three four five six seven eight nine ten .....');
  });

  it('leaves a text of ten words or fewer unchanged', () => {
    const ten = 'one two three four five six seven eight nine ten';
    expect(truncateWords(ten, 10)).toBe(ten);
    expect(truncateWords('short', 10)).toBe('short');
  });

  it('counts words across any whitespace', () => {
    expect(truncateWords('a\n b\t c   d', 2)).toBe('a b .....');
  });
});
