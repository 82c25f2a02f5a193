import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/free-port.js';
import { type MailCatcher, mailCatcherMessages, startMailCatcher } from '../src/mail-catcher.js';
import { isAlive } from './process-helpers.js';

interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends one message over plain SMTP, the conversation any client has (EHLO, MAIL, RCPT, DATA), and
 * fails on the first reply that is not the one expected.
 */
async function sendMail(smtpUrl: string, mail: Mail): Promise<void> {
  const { hostname, port } = new URL(smtpUrl);
  const socket = connect(Number(port), hostname);
  const lines = createInterface({ input: socket, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const expectReply = async (code: string, after: string): Promise<void> => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`the connection closed after ${after}`);
      // A reply's last line has a space after its code; the lines before it (EHLO's) a dash.
      if (!/^\d{3} /.test(value)) continue;
      if (!value.startsWith(`${code} `)) throw new Error(`${after} answered ${value}, not ${code}`);
      return;
    }
  };
  try {
    await expectReply('220', 'connecting');
    for (const [command, code] of [
      ['EHLO test.local', '250'],
      [`MAIL FROM:<${mail.from}>`, '250'],
      [`RCPT TO:<${mail.to}>`, '250'],
      ['DATA', '354'],
    ] as const) {
      socket.write(`${command}\r\n`);
      await expectReply(code, command);
    }
    const message = [
      `From: ${mail.from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      mail.text,
      '.',
      '',
    ];
    socket.write(message.join('\r\n'));
    await expectReply('250', 'the message');
    socket.write('QUIT\r\n');
    await expectReply('221', 'QUIT');
  } finally {
    socket.destroy();
  }
}

function scratchDirs(): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('shop-mail-') && !name.startsWith('shop-mail-given-'))
    .map((name) => join(tmpdir(), name));
}

describe('mail catcher', () => {
  let catcher: MailCatcher;

  beforeAll(async () => {
    catcher = await startMailCatcher();
  });

  afterAll(async () => {
    await catcher?.stop();
  });

  it('keeps every message sent to it and answers those to one address, with their text', async () => {
    expect(catcher.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(catcher.webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const from = 'no-reply@shop.local';
    await sendMail(catcher.smtpUrl, {
      from,
      to: 'ann@example.com',
      subject: 'Your reset code',
      text: 'Your password reset code is 123456',
    });
    // An address the one asked for is part of: found by the catcher's own search, left out here.
    await sendMail(catcher.smtpUrl, { from, to: 'joann@example.com', subject: 'Other', text: 'Not for Ann' });

    const toAnn = await mailCatcherMessages(catcher.webUrl, { to: 'Ann@Example.com' });
    expect(toAnn).toHaveLength(1);
    expect(toAnn[0]).toMatchObject({
      from,
      to: ['ann@example.com'],
      subject: 'Your reset code',
    });
    expect(toAnn[0]!.text).toContain('Your password reset code is 123456');
    expect(Number.isNaN(Date.parse(toAnn[0]!.created))).toBe(false);

    const all = await mailCatcherMessages(catcher.webUrl);
    expect(all.map((message) => message.subject)).toEqual(['Other', 'Your reset code']);
    expect(await mailCatcherMessages(catcher.webUrl, { to: 'nobody@example.com' })).toEqual([]);
  });

  it("serves the shop's inbox page: Mailpit's page with the script and style it loads", async () => {
    const page = await fetch(`${catcher.webUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    for (const [file, says] of [
      ['app.js', "document.title = 'Shop mail'"],
      ['app.css', 'font:'],
    ] as const) {
      const src = new RegExp(`/dist/${file.replace('.', '\\.')}[^"]*`).exec(html)?.[0];
      expect(src, `the page loads ${file}`).toBeDefined();
      const asset = await fetch(`${catcher.webUrl}${src}`);
      expect(asset.status, file).toBe(200);
      expect(await asset.text()).toContain(says);
    }
  });

  it('keeps its messages in the file it was given across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shop-mail-given-'));
    try {
      const dataFile = join(dir, 'mail', 'mailpit.db');
      const first = await startMailCatcher({ dataFile });
      await sendMail(first.smtpUrl, {
        from: 'no-reply@shop.local',
        to: 'kept@example.com',
        subject: 'Kept',
        text: 'Still here',
      });
      await first.stop();
      expect(isAlive(first.pid)).toBe(false);

      const second = await startMailCatcher({ dataFile });
      try {
        const kept = await mailCatcherMessages(second.webUrl, { to: 'kept@example.com' });
        expect(kept.map((message) => message.text.trim())).toEqual(['Still here']);
      } finally {
        await second.stop();
      }
      expect(existsSync(dataFile)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a port something else holds, naming it', async () => {
    const port = await freePort();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      await expect(startMailCatcher({ smtpPort: port })).rejects.toThrow(
        `its SMTP port ${port} is taken on 127.0.0.1`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('removes its temporary folder and leaves no process behind after stop()', async () => {
    const before = new Set(scratchDirs());
    const other = await startMailCatcher();
    const created = scratchDirs().filter((dir) => !before.has(dir));
    expect(created).toHaveLength(1);
    expect(existsSync(join(created[0]!, 'mailpit.db'))).toBe(true);
    await other.stop();
    expect(isAlive(other.pid)).toBe(false);
    expect(existsSync(created[0]!)).toBe(false);
  });
});
