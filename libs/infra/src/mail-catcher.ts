import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { freePort, portIsFree } from './free-port.js';
import { toolPaths } from './paths.cjs';
import { type ManagedProcess, startProcess } from './process.js';
import { startOnScratchDir } from './scratch-dir.js';
import { ensureToolsInstalled } from './tools.js';

export interface MailCatcherOptions {
  /** Where it takes mail (SMTP); absent means a free port. */
  smtpPort?: number;
  /** Its web inbox and API; absent means a free port. */
  httpPort?: number;
  /** The SQLite file it keeps messages in; absent means one in a temporary folder, removed on stop. */
  dataFile?: string;
  /** Also append its output to this file. */
  logFile?: string;
}

/**
 * A running mail catcher (Mailpit): every message sent to `smtpUrl` is kept, and shown in the inbox at
 * `webUrl` (its API under `/api/v1`).
 */
export type MailCatcher = ManagedProcess & { smtpUrl: string; webUrl: string };

/** Whether something accepts TCP connections on 127.0.0.1:`port` now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts Mailpit on 127.0.0.1 and resolves once it takes mail and serves its inbox. Any SMTP user and
 * password is accepted, none included, without TLS: it is a local catcher, never a relay. A port that
 * is taken (another mail catcher, most likely) fails the start with its number.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  if (options.dataFile === undefined) {
    return startOnScratchDir('shop-mail-', (dir) =>
      startMailCatcher({ ...options, dataFile: join(dir, 'mailpit.db') }),
    );
  }
  ensureToolsInstalled();
  mkdirSync(dirname(options.dataFile), { recursive: true });
  const smtpPort = options.smtpPort ?? (await freePort());
  const httpPort = options.httpPort ?? (await freePort());
  // Mailpit says it starts before it binds, and its inbox would answer from whoever holds the port.
  for (const [what, port] of [
    ['SMTP', smtpPort],
    ['web', httpPort],
  ] as const) {
    if (!(await portIsFree(port))) {
      throw new Error(`mail catcher (Mailpit): its ${what} port ${port} is taken on 127.0.0.1`);
    }
  }
  const webUrl = `http://127.0.0.1:${httpPort}`;
  const timeoutMs = 20_000;
  const { ready: _, ...catcher } = await startProcess({
    name: 'mail catcher (Mailpit)',
    command: toolPaths().mailpit,
    args: [
      '--smtp',
      `127.0.0.1:${smtpPort}`,
      '--listen',
      `127.0.0.1:${httpPort}`,
      '--database',
      options.dataFile,
      '--smtp-auth-accept-any',
      '--smtp-auth-allow-insecure',
      // Nothing here needs the network: no reverse DNS of the sender, no look for a newer release.
      '--smtp-disable-rdns',
      '--disable-version-check',
    ],
    readyUrl: `${webUrl}/readyz`,
    timeoutMs,
    logFile: options.logFile,
    signalOnExit: 'SIGTERM',
  });
  // Its SMTP listener opens beside the web one, not necessarily first.
  const deadline = Date.now() + timeoutMs;
  while (!(await accepts(smtpPort))) {
    if (Date.now() > deadline) {
      await catcher.stop();
      throw new Error(
        `mail catcher (Mailpit): SMTP not open on port ${smtpPort} within ${timeoutMs} ms\nlast output:\n${catcher.output()}`,
      );
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { ...catcher, smtpUrl: `smtp://127.0.0.1:${smtpPort}`, webUrl };
}

/** One message the catcher holds, as its API tells it. */
export interface CaughtMail {
  id: string;
  from: string;
  /** Every recipient's address, as written. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** When it arrived (ISO 8601). */
  created: string;
}

interface MailpitAddress {
  Address: string;
}
interface MailpitSummary {
  ID: string;
  From: MailpitAddress | null;
  To: MailpitAddress[] | null;
  Subject: string;
  Created: string;
}
interface MailpitMessage {
  Text: string;
  HTML: string;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/**
 * The messages the catcher at `webUrl` holds, newest first, each with its text and HTML: every one (the
 * newest `limit`, 50), or those to one address (compared without regard to case).
 */
export async function mailCatcherMessages(
  webUrl: string,
  options: { to?: string; limit?: number } = {},
): Promise<CaughtMail[]> {
  const limit = options.limit ?? 50;
  const to = options.to?.trim().toLowerCase();
  const list = to
    ? `${webUrl}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}&limit=${limit}`
    : `${webUrl}/api/v1/messages?limit=${limit}`;
  const { messages } = await getJson<{ messages: MailpitSummary[] }>(list);
  // The search matches part of an address too (to:ann@x finds joann@x): only exact ones are kept.
  const wanted = messages.filter(
    (message) => !to || (message.To ?? []).some((each) => each.Address.toLowerCase() === to),
  );
  return Promise.all(
    wanted.map(async (summary) => {
      const body = await getJson<MailpitMessage>(`${webUrl}/api/v1/message/${summary.ID}`);
      return {
        id: summary.ID,
        from: summary.From?.Address ?? '',
        to: (summary.To ?? []).map((each) => each.Address),
        subject: summary.Subject,
        text: body.Text,
        html: body.HTML,
        created: summary.Created,
      };
    }),
  );
}
