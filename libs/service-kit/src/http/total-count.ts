import { TOTAL_COUNT_HEADER } from '@shop/contracts';

/** The part of the platform's reply a paged answer uses (a service need not depend on fastify). */
export interface HeaderReply {
  header(name: string, value: string): unknown;
}

/**
 * A paged list's answer: `items`, with how many match across every page in X-Total-Count
 * (`TOTAL_COUNT_HEADERS` documents it). Take `reply` with `@Res({ passthrough: true })`.
 */
export function withTotalCount<T>(reply: HeaderReply, items: T[], total: number): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(total));
  return items;
}
