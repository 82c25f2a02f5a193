import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DecoratorStack } from './decorator-stack';
import { QueryNumber } from './dto-transforms';

/** The largest page number a list accepts: far past any list's end, small enough to skip cheaply. */
const MAX_PAGE = 1_000_000;

/**
 * An optional whole number of a list's query from 1 to `max` (`?page=2`), read from its digits and
 * refused with a 400 that says why.
 */
const PagingNumber = (max: number): PropertyDecorator =>
  DecoratorStack(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max }),
    IsOptional(),
    QueryNumber(),
    IsInt({ message: '$property must be a whole number' }),
    Min(1, { message: '$property must be at least 1' }),
    Max(max, { message: `$property must be at most ${max}` }),
  );

/**
 * The paging part of a list's query (`page` from 1, `limit` items per page up to `maxLimit`), each refused
 * with a 400 that says why; a list's query class extends it: `class ListUsersQuery extends PagedQuery(100)`.
 */
export function PagedQuery(maxLimit: number) {
  class Paged {
    @PagingNumber(MAX_PAGE)
    page?: number;

    @PagingNumber(maxLimit)
    limit?: number;
  }
  return Paged;
}
