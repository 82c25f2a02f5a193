import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { markCatalogRead } from './catalog-http';

/** The products an answer shows: a stock change of one of them makes it stale. */
function productIdsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item: unknown) => {
    const id = (item as { _id?: unknown } | null)?._id;
    return typeof id === 'string' ? [id] : [];
  });
}

/**
 * Marks the request of a public catalog read with the products its answer shows, so the onSend hook
 * caches the answer and gives it validators (catalog-http.ts). Routes get it through `@CatalogRead`.
 */
@Injectable()
export class CatalogReadInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method !== 'GET') return next.handle();
    return next.handle().pipe(tap((value) => markCatalogRead(request, productIdsOf(value))));
  }
}
