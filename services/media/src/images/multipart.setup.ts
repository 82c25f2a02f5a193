import multipart from '@fastify/multipart';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/**
 * Registers @fastify/multipart on the service's Fastify instance while the app initialises
 * (before it listens): the shared bootstrap of @shop/service-kit has no hook for plugins.
 */
@Injectable()
export class MultipartSetup implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(multipart, { throwFileSizeLimit: true });
  }
}
