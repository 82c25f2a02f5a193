import { type DynamicModule, Module, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { UsersConfig } from '../config/users.config';
import { FolderMailer, Mailer, SmtpMailer } from './mailer';

function createMailer({ config, logger }: ServiceContext<UsersConfig>): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  if (config.NODE_ENV === 'production') {
    // Allowed, for a development cluster, but reset codes then reach nobody: say so loudly.
    logger.warn(
      { outbox: config.MAIL_OUTBOX_DIR },
      'SMTP_URL is not set: e-mail (password-reset codes) is written to files, not sent',
    );
  }
  return new FolderMailer(config.MAIL_OUTBOX_DIR, config.MAIL_FROM);
}

/** The service's e-mail: SMTP when `SMTP_URL` is set, else files in a folder; or a test's mailer. */
@Module({})
export class MailModule implements OnApplicationShutdown {
  constructor(private readonly mailer: Mailer) {}

  static register(mailer?: Mailer): DynamicModule {
    return {
      module: MailModule,
      providers: [
        mailer
          ? { provide: Mailer, useValue: mailer }
          : {
              provide: Mailer,
              useFactory: (context: ServiceContext<UsersConfig>) => createMailer(context),
              inject: [SERVICE_CONTEXT],
            },
      ],
      exports: [Mailer],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.mailer.close();
  }
}
