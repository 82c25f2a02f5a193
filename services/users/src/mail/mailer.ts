import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same as HTML, for clients that show it; the text is the alternative. */
  html?: string;
}

/** Sends the service's e-mail. */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<void>;
  /** Closes connections; nothing to do for the folder. */
  async close(): Promise<void> {}
}

/**
 * Delivers through an SMTP server (`SMTP_URL`), over a few kept-open connections (nodemailer's pool):
 * a connection, its greeting and its authentication per message cost the users service more CPU per
 * order than everything else it does for one (bench `orders`). `?pool=false` in the URL opts out.
 */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    const url = new URL(smtpUrl);
    if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
    this.transport = createTransport(url.toString());
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  override async close(): Promise<void> {
    this.transport.close();
  }
}

/**
 * Writes each message as an RFC 5322 `.eml` file into a folder, for local runs and tests: a mail
 * client opens it, a test reads it. Names sort by time.
 */
export class FolderMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    private readonly dir: string,
    private readonly from: string,
  ) {
    super();
    this.transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = (await this.transport.sendMail({ from: this.from, ...message })) as { message: Buffer };
    await mkdir(this.dir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    await writeFile(join(this.dir, name), info.message, { mode: 0o600 });
  }
}
