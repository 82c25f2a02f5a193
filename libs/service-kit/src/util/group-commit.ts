/**
 * Group commit with an answer per item: callers hand in one item each; the items that arrive while a
 * batch is being written go out together in the next one. `run` writes a batch with as few database
 * commands as it can and answers each item through `answer(index, outcome)`, as soon as its outcome is
 * known (an outcome may be a promise, for the rare item that needs more work of its own: that work
 * does not hold up the next batch). An item `run` leaves unanswered fails with the error `run` threw,
 * or with an error saying so.
 */
export class GroupCommit<T, R> {
  private queued: {
    item: T;
    resolve: (outcome: R | Promise<R>) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private running?: Promise<void>;

  constructor(
    private readonly run: (
      items: T[],
      answer: (index: number, outcome: R | Promise<R>) => void,
    ) => Promise<void>,
    private readonly maxBatch = 64,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queued.push({ item, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Settles once every batch handed in so far is written (or failed). */
  async flushed(): Promise<void> {
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        const batch = this.queued.splice(0, this.maxBatch);
        const answered = new Set<number>();
        const answer = (index: number, outcome: R | Promise<R>) => {
          if (answered.has(index) || !batch[index]) return;
          answered.add(index);
          batch[index].resolve(outcome);
        };
        let failure: unknown = new Error('the batch ended without answering this item');
        try {
          await this.run(
            batch.map((entry) => entry.item),
            answer,
          );
        } catch (error) {
          failure = error;
        }
        batch.forEach((entry, index) => {
          if (!answered.has(index)) entry.reject(failure);
        });
      }
    } finally {
      this.running = undefined;
    }
  }
}

/** What `insertEach` needs of a collection: the driver's `insertMany`. */
interface Inserting<D> {
  insertMany(docs: D[], options: { ordered: false }): Promise<unknown>;
}

/**
 * Inserts `docs` in one unordered command (each document succeeds or fails on its own, e.g. on a
 * duplicate key) and answers the error of each one that failed, by its index. An error that names no
 * document (the command itself failed) is thrown.
 */
export async function insertEach<D>(collection: Inserting<D>, docs: D[]): Promise<Map<number, unknown>> {
  const failed = new Map<number, unknown>();
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (error) {
    const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
    if (!Array.isArray(writeErrors) || writeErrors.length === 0) throw error;
    for (const writeError of writeErrors as { index: number }[]) failed.set(writeError.index, writeError);
  }
  return failed;
}
