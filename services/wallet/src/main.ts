import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { walletConfigSchema } from './config/wallet.config';

runService('wallet', walletConfigSchema, (context) => AppModule.register(context));
