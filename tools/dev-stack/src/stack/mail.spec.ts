import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@shop/infra';
import { afterAll, describe, expect, it } from 'vitest';
import { startMail } from './mail.js';
import { Parts } from './parts.js';

const scratch = mkdtempSync(join(tmpdir(), 'stack-mail-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('startMail', () => {
  const settings = (lines: string[]) => ({
    dataDir: scratch,
    logDir: scratch,
    outboxDir: join(scratch, 'outbox'),
    log: (line: string) => lines.push(line),
  });

  it('runs the mail catcher on the ports given, its messages kept under the data folder', async () => {
    const lines: string[] = [];
    const parts = new Parts({ log: () => undefined });
    const ports = { smtp: await freePort(), web: await freePort() };
    try {
      const { smtpUrl, catcher } = await startMail({ parts, ports, ...settings(lines) });
      expect(catcher).toEqual({
        webUrl: `http://127.0.0.1:${ports.web}`,
        smtpUrl: `smtp://127.0.0.1:${ports.smtp}`,
      });
      expect(smtpUrl).toBe(catcher!.smtpUrl);
      expect(parts.pidOf('mail')).toBeGreaterThan(0);
      expect(lines).toEqual([`mail          ${catcher!.webUrl} (SMTP ${catcher!.smtpUrl})`]);
      expect(existsSync(join(scratch, 'mail', 'mailpit.db'))).toBe(true);
      const inbox = await fetch(`${catcher!.webUrl}/api/v1/messages`);
      expect(((await inbox.json()) as { total: number }).total).toBe(0);
    } finally {
      await parts.stopAll();
    }
  });

  it('has users write files where the mail catcher is not built', async () => {
    const lines: string[] = [];
    const parts = new Parts({ log: () => undefined });
    const previous = process.env['SHOP_TOOLS_DIR'];
    process.env['SHOP_TOOLS_DIR'] = join(scratch, 'no-tools');
    try {
      expect(await startMail({ parts, ports: { smtp: 1, web: 1 }, ...settings(lines) })).toEqual({});
    } finally {
      if (previous === undefined) delete process.env['SHOP_TOOLS_DIR'];
      else process.env['SHOP_TOOLS_DIR'] = previous;
    }
    expect(parts.has('mail')).toBe(false);
    expect(lines).toEqual([
      `mail          ${join(scratch, 'outbox')} (.eml files: no mail catcher, ensure-tools builds it where Go is)`,
    ]);
  });

  it('starts no catcher with an SMTP server of your own, and never prints its password', async () => {
    const lines: string[] = [];
    const parts = new Parts({ log: () => undefined });
    const given = 'smtps://shop:hunter2@smtp.example.com:465';
    const ports = { smtp: 1, web: 1 };
    expect(await startMail({ parts, ports, smtpUrl: given, ...settings(lines) })).toEqual({
      smtpUrl: given,
    });
    expect(parts.has('mail')).toBe(false);
    expect(lines).toEqual([
      'mail          smtps://shop:***@smtp.example.com:465 (SMTP_URL: a server of your own)',
    ]);
    const refused = await startMail({
      parts,
      ports,
      smtpUrl: 'http://shop:hunter2@smtp.example.com',
      ...settings(lines),
    }).catch((error: unknown) => String(error));
    expect(refused).toMatch(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(refused).not.toContain('hunter2');
  });
});
