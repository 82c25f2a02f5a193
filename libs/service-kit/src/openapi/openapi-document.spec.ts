import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiResponse } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsMongoId,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { authConfigShape } from '../auth/auth.config';
import { AdminOnly } from '../auth/auth.decorators';
import { AuthModule } from '../auth/auth.module';
import { baseServiceConfigSchema } from '../config/service-config';
import { ServiceKitModule } from '../service-kit.module';
import { openApiDocument, previewContext } from './openapi-document';
import { ApiErrors, ErrorResponseBody } from './openapi-responses';

class Line {
  @IsMongoId() _id!: string;
  @IsInt() @Min(1) quantity!: number;
}

class Basket {
  @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
  @IsOptional() @IsString() @MaxLength(20) note?: string;
}

class Paging {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) page?: number;
  @IsOptional() @IsIn(['new', 'old']) sort?: 'new' | 'old';
}

class Answer {
  @ApiProperty({ type: String, nullable: true }) paidAt!: string | null;
}

@Controller('api/baskets')
class BasketsController {
  @Post()
  @AdminOnly()
  @ApiOkResponse({ type: Answer })
  place(@Body() basket: Basket): Answer {
    return { paidAt: basket.note ?? null };
  }

  @Get()
  list(@Query() paging: Paging): number {
    return paging.page ?? 1;
  }

  @Get(':id')
  @ApiOkResponse({ type: String })
  @ApiErrors(404, 429)
  @ApiResponse({ status: 409, description: 'The basket is already placed', type: ErrorResponseBody })
  one(@Param('id') id: string): string {
    return id;
  }
}

@Module({ controllers: [BasketsController] })
class BasketsModule {}

async function describeBaskets() {
  const root = mkdtempSync(join(tmpdir(), 'openapi-kit-'));
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: '@shop/baskets', description: 'Baskets.' }),
  );
  // As a service registers its module: the kit and token checks, from a context that connects nowhere.
  const context = previewContext('baskets', baseServiceConfigSchema.extend(authConfigShape));
  return openApiDocument(root, {
    module: BasketsModule,
    imports: [ServiceKitModule.forRoot(context), AuthModule.forRoot(context)],
  });
}

describe('openApiDocument', () => {
  it('describes DTOs by their validation rules, in OpenAPI 3.1', async () => {
    const document = await describeBaskets();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'baskets service', description: 'Baskets.' });
    const schemas = document.components!.schemas!;
    expect(schemas.Line).toEqual({
      type: 'object',
      properties: {
        _id: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' },
        quantity: { type: 'integer', minimum: 1 },
      },
      required: ['_id', 'quantity'],
    });
    expect(schemas.Basket).toMatchObject({
      properties: {
        lines: { type: 'array', items: { $ref: '#/components/schemas/Line' } },
        note: { type: 'string', maxLength: 20 },
      },
      required: ['lines'],
    });
    expect(schemas.Answer).toMatchObject({ properties: { paidAt: { type: ['string', 'null'] } } });
    const list = document.paths['/api/baskets']!.get!;
    expect(list.parameters).toEqual([
      { name: 'page', required: false, in: 'query', schema: { type: 'integer', minimum: 1 } },
      { name: 'sort', required: false, in: 'query', schema: { type: 'string', enum: ['new', 'old'] } },
    ]);
  });

  it('adds the answers every route gets from the kit, and the token an admin route needs', async () => {
    const document = await describeBaskets();
    const place = document.paths['/api/baskets']!.post!;
    expect(Object.keys(place.responses)).toEqual(['200', '400', '401', '403', '413', '503']);
    expect(place.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(place.security).toEqual([{ bearer: [] }]);
    expect((place as unknown as Record<string, unknown>)['x-admin-only']).toBe(true);
    const list = document.paths['/api/baskets']!.get!;
    expect(list.security).toEqual([]);
    expect(Object.keys(list.responses)).toEqual(['200', '400', '503']);
  });

  it('declares each shared error answer once, in components.responses, and keeps one that differs inline', async () => {
    const document = await describeBaskets();
    const error = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponseBody' } } };
    const responses = document.components!.responses!;
    expect(Object.keys(responses)).toEqual([
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'PayloadTooLarge',
      'TooManyRequests',
      'ServiceUnavailable',
    ]);
    expect(responses.Forbidden).toEqual({
      description: 'The token is valid but its user may not do this (admins only)',
      content: error,
    });
    expect(responses.TooManyRequests).toEqual({
      description: 'Too many attempts: wait the seconds in Retry-After',
      headers: {
        'Retry-After': { description: 'Seconds until a retry may succeed', schema: { type: 'integer' } },
      },
      content: error,
    });
    const one = document.paths['/api/baskets/{id}']!.get!;
    expect(one.responses).toEqual({
      '200': expect.anything(),
      '400': { $ref: '#/components/responses/BadRequest' },
      '404': { $ref: '#/components/responses/NotFound' },
      '409': { description: 'The basket is already placed', content: error },
      '429': { $ref: '#/components/responses/TooManyRequests' },
      '503': { $ref: '#/components/responses/ServiceUnavailable' },
    });
    // The error shape stays, reached through the shared answers alone.
    expect(document.components!.schemas!.ErrorResponseBody).toBeDefined();
  });
});
