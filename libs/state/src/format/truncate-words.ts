const ELLIPSIS = ' .....';

/** The first `maxWords` words followed by ' .....' when the text is longer; otherwise the text unchanged. */
export function truncateWords(text: string, maxWords = 10): string {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length <= maxWords) return text;
  return words.slice(0, maxWords).join(' ') + ELLIPSIS;
}
