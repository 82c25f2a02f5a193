import { GroupCommit } from '@shop/service-kit';

/**
 * Group commit where a batch is one write that succeeds or fails as a whole: callers hand in one item
 * each and resume once the write that carried it is done (or with its error). Under load, N concurrent
 * checkouts cost one database command instead of N.
 */
export class WriteBatcher<T> extends GroupCommit<T, void> {
  constructor(name: string, write: (items: T[]) => Promise<void>, maxBatch = 500) {
    super(
      async (items, answer) => {
        await write(items);
        items.forEach((_, index) => answer(index, undefined));
      },
      { name, maxBatch },
    );
  }
}
