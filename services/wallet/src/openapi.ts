import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument, previewContext } from '@shop/service-kit';
import { AppModule } from './app.module';
import { walletConfigSchema } from './config/wallet.config';

/** The wallet API as its controllers and DTOs declare it (OpenAPI 3.1), built without a database or broker. */
export function walletOpenApi(): Promise<OpenAPIObject> {
  return openApiDocument({
    name: 'wallet',
    description: 'where customers send manual payments, per payment method (details and QR code).',
    version: '1.0.0',
    module: AppModule.register(previewContext('wallet', walletConfigSchema)),
  });
}

/** services/wallet, where openapi.json is committed (this file runs from src/ in tests, dist/ otherwise). */
export const SERVICE_ROOT = join(__dirname, '..');
