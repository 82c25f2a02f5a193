import { ApiError } from '@shop/state';

/** The text to show for a failed call: the server's message (`ApiError` carries it), else the error's own. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The HTTP status of a failed call; 0 when the server never answered or it was not a call. */
export function errorStatus(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}

/** Whether a failure is only the cancellation of a call the screen no longer needs. */
export function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}
