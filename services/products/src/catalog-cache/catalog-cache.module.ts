import { type DynamicModule, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FeatureFlags } from '@shop/service-kit';
import type { FastifyInstance } from 'fastify';
import { CatalogCache, type CatalogCacheLimits } from './catalog-cache';
import { catalogHooks } from './catalog-http';
import { CatalogInvalidation } from './catalog-invalidation';

/** Installs the cache's Fastify hooks before the server starts listening. */
@Injectable()
class CatalogHttpHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly cache: CatalogCache,
    private readonly flags: FeatureFlags,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const hooks = catalogHooks(this.cache, this.flags);
    fastify.addHook('onRequest', hooks.onRequest);
    fastify.addHook('onSend', hooks.onSend);
  }
}

/**
 * Public catalog answers from memory, per replica: the store (catalog-cache.ts), the Fastify hooks
 * that answer from it and keep answers (catalog-http.ts), and what keeps it fresh on every replica
 * (catalog-invalidation.ts). It exports nothing: a route joins with `@CatalogRead`, and the products
 * schema reports its writes with `reportCatalogWrites` (index.ts).
 */
@Module({})
export class CatalogCacheModule {
  static register(limits: CatalogCacheLimits): DynamicModule {
    return {
      module: CatalogCacheModule,
      providers: [
        { provide: CatalogCache, useFactory: () => new CatalogCache(limits) },
        CatalogInvalidation,
        CatalogHttpHooks,
      ],
    };
  }
}
