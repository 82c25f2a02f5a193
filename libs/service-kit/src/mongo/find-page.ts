import type { Model, QueryFilter, SortOrder } from 'mongoose';

/** Which of the matching documents one page holds. */
export interface PageWindow {
  skip: number;
  limit: number;
}

/** Page `page` (from 1; the first when absent) of `limit` documents. */
export function pageWindow(page: number | undefined, limit: number): PageWindow {
  return { skip: ((page ?? 1) - 1) * limit, limit };
}

export interface FindPageOptions {
  /** The fields to read, as a projection string. */
  select: string;
  /** The order of the list; end it with a unique field so pages never shuffle. */
  sort: Record<string, SortOrder>;
  /** The page to read; every match when absent. */
  page?: PageWindow;
}

/**
 * A list with its total, as a paged API answers it (the total in `X-Total-Count`): the documents
 * matching `filter` in order, one page of them or all, as plain objects, and how many match in all.
 * Both are read at once.
 */
export async function findPage<TRecord, TDoc = TRecord>(
  model: Model<TRecord>,
  filter: QueryFilter<TRecord>,
  options: FindPageOptions,
): Promise<{ docs: TDoc[]; total: number }> {
  let find = model.find(filter).select(options.select).sort(options.sort);
  if (options.page) find = find.skip(options.page.skip).limit(options.page.limit);
  const [total, docs] = await Promise.all([model.countDocuments(filter), find.lean<TDoc[]>()]);
  return { docs, total };
}
