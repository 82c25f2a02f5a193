/** The text to show for a failed call: the `ApiError`'s (the server's message), else the error's own. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
