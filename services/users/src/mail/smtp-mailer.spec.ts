import { type MailCatcher, mailCatcherMessages, startMailCatcher, until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from './mailer';

// The SMTP mailer against a real SMTP server (the mail catcher npm start runs): messages sent at once
// over its pooled connections all arrive, each as it was given.

let catcher: MailCatcher;

beforeAll(async () => {
  catcher = await startMailCatcher();
});

afterAll(async () => {
  await catcher?.stop();
});

describe('SmtpMailer', () => {
  it('delivers messages sent at once, text and HTML, from the configured sender', async () => {
    const mailer = new SmtpMailer(catcher.smtpUrl, 'Shop <no-reply@shop.local>');
    try {
      await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          mailer.send({
            to: `pooled-${n}@example.com`,
            subject: `Message ${n}`,
            text: `Text ${n}`,
            html: `<p>HTML ${n}</p>`,
          }),
        ),
      );
    } finally {
      await mailer.close();
    }
    const arrived = await until(async () => {
      const messages = await mailCatcherMessages(catcher.webUrl);
      return messages.length >= 5 ? messages : undefined;
    });
    expect(arrived.map((message) => message.subject).sort()).toEqual([
      'Message 1',
      'Message 2',
      'Message 3',
      'Message 4',
      'Message 5',
    ]);
    const third = arrived.find((message) => message.subject === 'Message 3')!;
    expect(third).toMatchObject({
      from: 'no-reply@shop.local',
      to: ['pooled-3@example.com'],
      text: 'Text 3',
    });
    expect(third.html).toContain('<p>HTML 3</p>');
  });
});
