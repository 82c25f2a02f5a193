import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { mediaConfigSchema } from './config/media.config';

runService('media', mediaConfigSchema, (context) => AppModule.register(context));
