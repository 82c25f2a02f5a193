import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { dataConfigSchema } from './config/data.config';

runService('data', dataConfigSchema, (context) => AppModule.register(context));
