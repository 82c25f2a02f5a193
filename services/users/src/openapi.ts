import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument, previewContext } from '@shop/service-kit';
import { AppModule } from './app.module';
import { usersConfigSchema } from './config/users.config';

/** The users API as its controllers and DTOs declare it (OpenAPI 3.1), built without a database or broker. */
export function usersOpenApi(): Promise<OpenAPIObject> {
  return openApiDocument({
    name: 'users',
    description: 'accounts, sign-in tokens, profile, admin user management, password recovery.',
    version: '1.0.0',
    module: AppModule.register(previewContext('users', usersConfigSchema)),
  });
}

/** services/users, where openapi.json is committed (this file runs from src/ in tests, dist/ otherwise). */
export const SERVICE_ROOT = join(__dirname, '..');
