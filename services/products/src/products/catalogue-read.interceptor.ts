import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { CatalogueCache } from './catalogue-cache';
import { catalogueHooks, markCatalogueRead } from './catalogue-http';

/** The products an answer shows: a stock change of one of them makes it stale. */
function productIdsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item: unknown) => {
    const id = (item as { _id?: unknown } | null)?._id;
    return typeof id === 'string' ? [id] : [];
  });
}

/**
 * On a public catalogue read (put it on routes that answer the same to everyone, never on one that
 * looks at the caller), marks the request so its answer is cached and validated (catalogue-http.ts).
 * The cache's generation is taken before the handler reads the database, so a change that lands
 * during the read keeps the answer out of the cache.
 */
@Injectable()
export class CatalogueReadInterceptor implements NestInterceptor {
  constructor(private readonly cache: CatalogueCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method !== 'GET') return next.handle();
    const generation = this.cache.generation;
    return next
      .handle()
      .pipe(tap((value) => markCatalogueRead(request, { generation, productIds: productIdsOf(value) })));
  }
}

/** Installs the cache's Fastify hooks before the server starts listening. */
@Injectable()
export class CatalogueHttpHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly cache: CatalogueCache,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const hooks = catalogueHooks(this.cache);
    fastify.addHook('onRequest', hooks.onRequest);
    fastify.addHook('onSend', hooks.onSend);
  }
}
