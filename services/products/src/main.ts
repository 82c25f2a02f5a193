import 'reflect-metadata';
import { bootstrapService, createServiceContext, loadConfig } from '@shop/service-kit';
import { AppModule } from './app.module';
import { productsConfigSchema } from './config/products.config';

async function main(): Promise<void> {
  const context = createServiceContext('products', loadConfig(productsConfigSchema));
  await bootstrapService(context, AppModule.register(context));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
