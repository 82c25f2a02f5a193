import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FeatureFlags } from '@shop/service-kit';
import type { FastifyInstance } from 'fastify';

/** The most the leak keeps, whatever the flag says: well under the users pod's memory limit. */
export const LEAK_BOUND_BYTES = 128 * 1024 * 1024;

/**
 * The fault flag `usersMemoryLeak`: after each request it answers, users keeps the flag's bytes on its heap,
 * up to `LEAK_BOUND_BYTES`, as a cache that never evicts would. Turning the flag off lets them all go.
 * `v8js_memory_heap_used_bytes{job="users"}` climbs while it is on.
 */
@Injectable()
export class MemoryLeakFault implements OnModuleInit {
  private kept: string[] = [];
  private keptBytes = 0;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly flags: FeatureFlags,
  ) {}

  /** What the leak holds now. */
  get bytesKept(): number {
    return this.keptBytes;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (_request, _reply, done) => {
      void this.afterResponse();
      done();
    });
  }

  private async afterResponse(): Promise<void> {
    const bytes = await this.flags.number('usersMemoryLeak');
    if (bytes <= 0) {
      this.kept = [];
      this.keptBytes = 0;
      return;
    }
    if (this.keptBytes + bytes > LEAK_BOUND_BYTES) return;
    // A string of one-byte characters lives on the V8 heap (a Buffer would not: it is external memory).
    this.kept.push('x'.repeat(bytes));
    this.keptBytes += bytes;
  }
}

/** The users service's own fault (the kit handles the readiness and outbox flags of every service). */
@Module({ providers: [MemoryLeakFault] })
export class FaultsModule {}
