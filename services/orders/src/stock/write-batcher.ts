/**
 * Group commit: callers hand in one item each and wait for it to be written; items that arrive
 * while a write is in flight go out together in the next one. Under load, N concurrent checkouts cost
 * one database command instead of N, and each caller still resumes only once its own item is written
 * (or with the error of the write that carried it).
 */
export class WriteBatcher<T> {
  private queued: { item: T; done: () => void; failed: (error: unknown) => void }[] = [];
  private writing?: Promise<void>;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 500,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.queued.push({ item, done, failed });
      this.writing ??= this.drain();
    });
  }

  /** Settles once everything handed in so far is written (or failed). */
  async flushed(): Promise<void> {
    await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        const batch = this.queued.splice(0, this.maxBatch);
        try {
          await this.write(batch.map((entry) => entry.item));
          for (const entry of batch) entry.done();
        } catch (error) {
          for (const entry of batch) entry.failed(error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}
