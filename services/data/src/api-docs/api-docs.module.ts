import { Module } from '@nestjs/common';
import { ApiDocsController } from './api-docs.controller';

/** The API reference page of every service (`GET /api/docs`), built beside the service. */
@Module({ controllers: [ApiDocsController] })
export class ApiDocsModule {}
