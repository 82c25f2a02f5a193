import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { usersConfigSchema } from './config/users.config';

runService('users', usersConfigSchema, (context) => AppModule.register(context));
