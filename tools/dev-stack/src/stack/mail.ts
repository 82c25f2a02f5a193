import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startMailCatcher, toolPaths } from '@shop/infra';
import type { StackPorts } from '../ports.js';
import { redactCredentials } from './infrastructure.js';
import type { Parts } from './parts.js';

/** The mail catcher of a stack that runs one: every message the shop sends, in a web inbox. */
export interface StackMail {
  /** Its inbox (the page at `/`, the API under `/api/v1`: libs/infra's `mailCatcherMessages`). */
  webUrl: string;
  /** Its SMTP server: the users service's SMTP_URL. */
  smtpUrl: string;
}

export interface MailOptions {
  parts: Parts;
  ports: StackPorts['mail'];
  dataDir: string;
  logDir: string;
  /** Where the users service writes e-mail when it has no SMTP server. */
  outboxDir: string;
  /** An SMTP server of your own: no mail catcher then. */
  smtpUrl?: string;
  log: (line: string) => void;
}

/**
 * Where the users service's e-mail goes: the SMTP server given, else a mail catcher (Mailpit) started
 * here, supervised with the other parts, its messages kept in `<dataDir>/mail`; else, where it is not
 * built (no Go on the machine), `.eml` files in the outbox folder. Answers the users service's SMTP_URL
 * (none: files), and the catcher when one runs.
 */
export async function startMail(options: MailOptions): Promise<{ smtpUrl?: string; catcher?: StackMail }> {
  const { parts, ports, log } = options;
  if (options.smtpUrl) {
    // Checked here, before anything uses it; its value (credentials) is never printed.
    if (!/^smtps?:\/\/.+/.test(options.smtpUrl) || !URL.canParse(options.smtpUrl)) {
      throw new Error('SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@host:587)');
    }
    log(`mail          ${redactCredentials(options.smtpUrl)} (SMTP_URL: a server of your own)`);
    return { smtpUrl: options.smtpUrl };
  }
  // Built by the installer (ensure-tools --servers) with the database launcher and nats-server, where
  // Go is: npm start and npm test run it first, and so does the embedded database's start.
  if (!existsSync(toolPaths().mailpit)) {
    log(
      `mail          ${options.outboxDir} (.eml files: no mail catcher, ensure-tools builds it where Go is)`,
    );
    return {};
  }
  let catcher: StackMail | undefined;
  await parts.keep('mail', async () => {
    const run = await startMailCatcher({
      smtpPort: ports.smtp,
      httpPort: ports.web,
      dataFile: join(options.dataDir, 'mail', 'mailpit.db'),
      logFile: join(options.logDir, 'mail.log'),
    });
    catcher = { webUrl: run.webUrl, smtpUrl: run.smtpUrl };
    return run;
  });
  log(`mail          ${catcher!.webUrl} (SMTP ${catcher!.smtpUrl})`);
  return { smtpUrl: catcher!.smtpUrl, catcher };
}
