import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { productsConfigSchema } from './config/products.config';

runService('products', productsConfigSchema, (context) => AppModule.register(context));
