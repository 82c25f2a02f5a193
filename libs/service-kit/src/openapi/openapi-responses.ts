import { type Type, applyDecorators } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtension,
  ApiOkResponse,
  ApiOperation,
  type ApiOperationOptions,
  ApiProperty,
  ApiResponse,
  type ApiResponseOptions,
} from '@nestjs/swagger';
import type { ErrorResponse } from '@shop/contracts';

/** The security scheme of the services' documents: the bearer token users issues at sign-in. */
export const BEARER_SCHEME = 'bearer';

/** The one error shape, as the documents name it. */
export class ErrorResponseBody implements ErrorResponse {
  @ApiProperty({ description: 'What went wrong, in a sentence for people', example: 'Product Not Found' })
  message!: string;
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds until a retry may succeed', schema: { type: 'integer' } },
};

export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'The request breaks a rule: a malformed body, id or parameter',
  401: 'No valid token: signed out, expired or revoked',
  403: 'The token is valid but its user may not do this (admins only)',
  404: 'Nothing with that id',
  409: 'The request conflicts with the current state (out of stock, already exists, wrong status)',
  413: 'The body is larger than the service accepts',
  415: 'The body is not of a type the service accepts',
  422: 'The Idempotency-Key was used for a different request, or its first request is still running',
  429: 'Too many attempts: wait the seconds in Retry-After',
  503: 'A part the service needs cannot be reached now (the database, or the service behind the gateway); retry later',
};

/**
 * The name of each error answer under `components.responses` of a document: every operation that
 * gives one of them in its shared form refers to it (`#/components/responses/NotFound`).
 */
export const ERROR_RESPONSE_NAMES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

/** Headers an error answer carries besides its body. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, typeof RETRY_AFTER>> = { 429: RETRY_AFTER };

/** A response object of an error answer (the shape of OpenAPI's, without importing @nestjs/swagger's internals). */
export interface ErrorResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: { type: string } }>;
  content: { 'application/json': { schema: { $ref: string } } };
}

/** The shared error answer of a status as a document spells it out: its description, headers and `{ message }` body. */
export function errorResponseObject(status: ErrorStatus, schemaRef: string): ErrorResponseObject {
  const headers = ERROR_HEADERS[status];
  return {
    description: ERROR_DESCRIPTIONS[status],
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: { $ref: schemaRef } } },
  };
}

/** Error answers of a route or a controller, each in the one error shape `{ message }`. */
export function ApiErrors(...statuses: ErrorStatus[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status],
        type: ErrorResponseBody,
        ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      }),
    ),
  );
}

/**
 * The OpenAPI description of an operation on one stored record, the one its path (or body) names: what it
 * does, what it answers (`answer`: the type of a 200, or the whole response), 404 when there is no such
 * record, and the `also` errors it gives besides (409 for a change the record's state refuses).
 */
export function ApiRecordOperation(
  operation: ApiOperationOptions,
  answer: Type<unknown> | ApiResponseOptions,
  ...also: ErrorStatus[]
): MethodDecorator {
  return applyDecorators(
    ApiOperation(operation),
    typeof answer === 'function' ? ApiOkResponse({ type: answer }) : ApiResponse(answer),
    ApiErrors(404, ...also),
  );
}

/** Swagger half of `@Authenticated()`: the bearer token, and the 401 without one. */
export function ApiSignedIn(): MethodDecorator & ClassDecorator {
  return applyDecorators(ApiBearerAuth(BEARER_SCHEME), ApiErrors(401));
}

/** Swagger half of `@AdminOnly()`: the bearer token of an admin, 401 and 403. */
export function ApiAdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(BEARER_SCHEME),
    ApiExtension('x-admin-only', true),
    ApiErrors(401, 403),
  );
}

/** The header of a paged list's answer: how many items match, across every page. */
export const TOTAL_COUNT_HEADERS = {
  'X-Total-Count': { description: 'How many items match, across every page', schema: { type: 'integer' } },
};
