/** Queues that write each item on its own (GROUP_COMMIT_OFF); `all` for every one. */
let unbatched: ReadonlySet<string> = new Set();

/**
 * Makes the named queues (`all`: every queue of the process) write each item alone, at once, as a
 * caller without the queue would: the service's GROUP_COMMIT_OFF, a switch for measuring what a queue
 * saves (bench `group-commit`), never needed to run the shop.
 */
export function writeAlone(names: readonly string[]): void {
  unbatched = new Set(names);
}

export interface GroupCommitOptions {
  /** The queue's name within its service, as GROUP_COMMIT_OFF names it. */
  name?: string;
  /** The most items one batch carries. */
  maxBatch?: number;
}

interface Entry<T, R> {
  item: T;
  resolve: (outcome: R | Promise<R>) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit with an answer per item: callers hand in one item each; the items that arrive while a
 * batch is being written go out together in the next one. `run` writes a batch with as few database
 * commands as it can and answers each item through `answer(index, outcome)`, as soon as its outcome is
 * known (an outcome may be a promise, for the rare item that needs more work of its own: that work
 * does not hold up the next batch). An item `run` leaves unanswered fails with the error `run` threw,
 * or with an error saying so. A queue switched off (`writeAlone`) runs each item as a batch of one, at
 * once, alongside the others.
 */
export class GroupCommit<T, R> {
  private queued: Entry<T, R>[] = [];
  private running?: Promise<void>;
  /** Items written alone and not yet settled (a queue switched off). */
  private readonly alone = new Set<Promise<void>>();
  private readonly name?: string;
  private readonly maxBatch: number;

  constructor(
    private readonly run: (
      items: T[],
      answer: (index: number, outcome: R | Promise<R>) => void,
    ) => Promise<void>,
    { name, maxBatch = 64 }: GroupCommitOptions = {},
  ) {
    this.name = name;
    this.maxBatch = maxBatch;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const entry = { item, resolve, reject };
      if (unbatched.has('all') || (this.name !== undefined && unbatched.has(this.name))) {
        const written = this.writeBatch([entry]);
        this.alone.add(written);
        void written.finally(() => this.alone.delete(written));
        return;
      }
      this.queued.push(entry);
      this.running ??= this.drain();
    });
  }

  /** Settles once every batch handed in so far is written (or failed). */
  async flushed(): Promise<void> {
    await Promise.all([this.running, ...this.alone]);
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) await this.writeBatch(this.queued.splice(0, this.maxBatch));
    } finally {
      this.running = undefined;
    }
  }

  /** Runs one batch and settles each of its items: with its answer, or with the failure. */
  private async writeBatch(batch: Entry<T, R>[]): Promise<void> {
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
