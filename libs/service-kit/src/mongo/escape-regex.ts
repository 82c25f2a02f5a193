/**
 * `text` as a regular expression that matches it literally, for a `$regex` search on what a user
 * typed: every metacharacter is escaped, and a NUL (which the database refuses in a pattern) is
 * written as `\x00`.
 */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&').replaceAll('\0', '\\x00');
}
