import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryNumber } from './dto-transforms';

/** The largest page number a list accepts: far past any list's end, small enough to skip cheaply. */
const MAX_PAGE = 1_000_000;

/**
 * The paging part of a list's query (`page` from 1, `limit` items per page up to `maxLimit`), each refused
 * with a 400 that says why; a list's query class extends it: `class ListUsersQuery extends PagedQuery(100)`.
 */
export function PagedQuery(maxLimit: number) {
  class Paged {
    @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE })
    @IsOptional()
    @QueryNumber()
    @IsInt({ message: 'page must be a whole number' })
    @Min(1, { message: 'page must be at least 1' })
    @Max(MAX_PAGE, { message: `page must be at most ${MAX_PAGE}` })
    page?: number;

    @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: maxLimit })
    @IsOptional()
    @QueryNumber()
    @IsInt({ message: 'limit must be a whole number' })
    @Min(1, { message: 'limit must be at least 1' })
    @Max(maxLimit, { message: `limit must be at most ${maxLimit}` })
    limit?: number;
  }
  return Paged;
}
