import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { ordersConfigSchema } from './config/orders.config';

runService('orders', ordersConfigSchema, (context) => AppModule.register(context));
