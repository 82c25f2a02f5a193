/** A failed call: the server's `message` when it sent one, else a generic text; `status` 0 means no answer. */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}
