import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ServiceKitModule, type ServiceContext } from '@shop/service-kit';
import type { OrdersConfig } from './config/orders.config';
import { OrdersModule } from './orders/orders.module';

@Module({})
export class AppModule {
  static register(context: ServiceContext<OrdersConfig>): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot(context), AuthModule.forRoot(context), OrdersModule],
    };
  }
}
