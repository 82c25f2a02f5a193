import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  type Type,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { TOTAL_COUNT_HEADER } from '@shop/contracts';
import { type Observable, map } from 'rxjs';
import { TOTAL_COUNT_HEADERS } from '../openapi/openapi-responses';

/** The part of the platform's reply a paged answer uses (a service need not depend on fastify). */
export interface HeaderReply {
  header(name: string, value: string): unknown;
}

/** One page of a list, and how many items match across every page. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * A paged list's answer: `items`, with how many match across every page in X-Total-Count
 * (`TOTAL_COUNT_HEADERS` documents it). Take `reply` with `@Res({ passthrough: true })`.
 */
export function withTotalCount<T>(reply: HeaderReply, items: T[], total: number): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(total));
  return items;
}

/** Answers the `Page` a handler returns as its items, with the total in X-Total-Count. */
@Injectable()
export class TotalCountInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<Page<unknown>>): Observable<unknown[]> {
    const reply = context.switchToHttp().getResponse<HeaderReply>();
    return next.handle().pipe(map((page) => withTotalCount(reply, page.items, page.total)));
  }
}

/**
 * A paged list of `type`: the handler returns a `Page`, the route answers its items as a JSON array
 * with the total in X-Total-Count, and its OpenAPI operation says so.
 */
export function PagedList(type: Type<unknown>): MethodDecorator {
  return applyDecorators(
    UseInterceptors(TotalCountInterceptor),
    ApiOkResponse({ type: [type], headers: TOTAL_COUNT_HEADERS }),
  );
}
