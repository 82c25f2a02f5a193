import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { z } from 'zod';
import { type BaseServiceConfig, loadConfig } from '../config/service-config';
import { createLogger } from '../logging/logger';
import type { ServiceContext } from '../service-context';
import { toOpenApi31 } from './openapi-31';
import {
  BEARER_SCHEME,
  ERROR_RESPONSE_NAMES,
  ErrorResponseBody,
  type ErrorStatus,
  errorResponseObject,
} from './openapi-responses';
import { describeValidatedClasses } from './validation-schemas';

/**
 * A context to describe a service with, never to run it: addresses that are never dialled and a
 * throw-away key pair, so a document is built without a database, a broker or a secret.
 */
export function previewContext<TSchema extends z.ZodType<BaseServiceConfig>>(
  name: string,
  schema: TSchema,
): ServiceContext<z.infer<TSchema>> {
  const keys = generateKeyPairSync('ed25519');
  const config = loadConfig(schema, {
    NODE_ENV: 'test',
    PORT: '0',
    MONGO_URL: 'mongodb://127.0.0.1:9/openapi-preview',
    NATS_URL: 'nats://127.0.0.1:9',
    LOG_LEVEL: 'silent',
    JWT_PUBLIC_KEY: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    JWT_PRIVATE_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  return { name, config, logger: createLogger(name, 'silent') };
}

/** `info.version` of every service's document (each service's releases are versioned in its package.json). */
export const API_DOCUMENT_VERSION = '1.0.0';

/**
 * The OpenAPI 3.1 document of the service in `serviceRoot` (`services/<name>`), read from its
 * controllers' decorators and DTO classes; title and description come from its package.json. The
 * app is created in preview mode: modules are scanned, nothing is instantiated or connected.
 */
export async function openApiDocument(serviceRoot: string, module: DynamicModule): Promise<OpenAPIObject> {
  const manifest = JSON.parse(readFileSync(join(serviceRoot, 'package.json'), 'utf8')) as {
    name: string;
    description: string;
  };
  const name = manifest.name.replace(/^@shop\//, '');
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    preview: true,
    abortOnError: false,
    logger: false,
  });
  const config = new DocumentBuilder()
    .setTitle(`${name} service`)
    .setDescription(manifest.description)
    .setVersion(API_DOCUMENT_VERSION)
    .addServer('/', 'the gateway (http://localhost:8000 locally)')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Token from POST /api/users/signin',
      },
      BEARER_SCHEME,
    )
    .build();
  describeValidatedClasses();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorResponseBody],
    operationIdFactory: (controllerKey, methodKey) => `${name}_${controllerKey}_${methodKey}`,
  });
  await app.close();
  addKitAnswers(document);
  dropUnusedSchemas(document);
  document.info.license = { name: 'MIT', identifier: 'MIT' } as OpenAPIObject['info']['license'];
  return toOpenApi31(document);
}

/**
 * Schemas no operation reaches, directly or through a shared answer of components.responses (DTOs
 * of NATS handlers, which the HTTP document does not describe).
 */
function dropUnusedSchemas(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const name of Object.keys(schemas)) {
      const { [name]: itself, ...others } = schemas;
      const rest = JSON.stringify([document.paths, document.components?.responses, others]);
      if (itself && !rest.includes(`"#/components/schemas/${name}"`)) {
        delete schemas[name];
        dropped = true;
      }
    }
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const ERROR_SCHEMA = '#/components/schemas/ErrorResponseBody';
const ERROR_CONTENT = { 'application/json': { schema: { $ref: ERROR_SCHEMA } } };
const isErrorStatus = (status: string): status is `${ErrorStatus}` => Number(status) in ERROR_RESPONSE_NAMES;

/**
 * The answers every service gives by way of the kit, whatever the route: 400 from the validation
 * pipe for a route that takes input, 413 from Fastify's body limit for one that takes a body, and
 * 503 while the database (or, through the gateway, the service) cannot be reached. Each error answer
 * in its shared form (`ApiErrors`: description, headers, `{ message }`) is declared once under
 * components.responses and referred to by the operations; one that differs stays in its operation.
 */
function addKitAnswers(document: OpenAPIObject): void {
  const shared = new Set<ErrorStatus>();
  for (const path of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = path[method];
      if (!operation) continue;
      // A route without a token requirement says so: it is public, not forgotten.
      operation.security ??= [];
      const statuses: ErrorStatus[] = [];
      const input = (operation.parameters ?? []).filter((p) => !('in' in p) || p.in !== 'header');
      if (operation.requestBody || input.length > 0) statuses.push(400);
      if (operation.requestBody) statuses.push(413);
      statuses.push(503);
      for (const status of statuses) {
        operation.responses[status] ??= errorResponseObject(status, ERROR_SCHEMA);
      }
      // An error is always JSON, whatever a route that serves bytes produces when it succeeds.
      for (const answer of Object.values(operation.responses) as { content?: object }[]) {
        if (answer.content && JSON.stringify(answer.content).includes(ERROR_SCHEMA))
          answer.content = ERROR_CONTENT;
      }
      for (const [key, answer] of Object.entries(operation.responses)) {
        if (!isErrorStatus(key)) continue;
        const status = Number(key) as ErrorStatus;
        // Compared as JSON: a member the decorators left undefined is no difference.
        if (!isDeepStrictEqual(JSON.parse(JSON.stringify(answer)), errorResponseObject(status, ERROR_SCHEMA)))
          continue;
        operation.responses[key] = { $ref: `#/components/responses/${ERROR_RESPONSE_NAMES[status]}` };
        shared.add(status);
      }
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  if (shared.size === 0) return;
  const statuses = [...shared].sort((a, b) => a - b);
  document.components = {
    ...document.components,
    responses: Object.fromEntries(
      statuses.map((status) => [ERROR_RESPONSE_NAMES[status], errorResponseObject(status, ERROR_SCHEMA)]),
    ),
  };
}

/** Where a service's document is committed: `services/<name>/openapi.json`, beside its package.json. */
export function openApiFileOf(serviceRoot: string): string {
  return join(serviceRoot, 'openapi.json');
}

/** Writes the document to `openapi.json` in the service's folder, formatted as Prettier would. */
export async function writeOpenApiDocument(serviceRoot: string, document: OpenAPIObject): Promise<string> {
  const file = openApiFileOf(serviceRoot);
  const { format, resolveConfig } = await import('prettier');
  const options = { ...(await resolveConfig(file)), filepath: file };
  writeFileSync(file, await format(JSON.stringify(document), options));
  return file;
}

/** The committed document, or undefined when there is none yet. */
export function readOpenApiDocument(serviceRoot: string): OpenAPIObject | undefined {
  const file = openApiFileOf(serviceRoot);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject) : undefined;
}
