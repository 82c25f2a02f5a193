// Lighthouse as the bench's sections run it (lcp.ts, server-rendering.ts): Debian's Chromium, headless; a
// run Lighthouse itself fails is tried again; each result is kept for diagnosis in a folder when asked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export type LaunchedChrome = chromeLauncher.LaunchedChrome;
export type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
/** Lighthouse's own failures, retried (NO_NAVSTART came once in nine runs on the loaded machine). */
const ATTEMPTS = 3;

/** The browser Lighthouse drives: CHROME_PATH, else Debian's Chromium. */
export function launchChrome(): Promise<LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** What Lighthouse says is the largest contentful paint's element, in short (its LCP breakdown insight). */
export function lcpElementOf(lhr: LighthouseResult): string {
  // details: { type: 'list', items: [<table of subparts>, { type: 'node', snippet, ... }] }
  const audit = lhr.audits['lcp-breakdown-insight'];
  const items = (audit as { details?: { items?: { type?: string; snippet?: string }[] } } | undefined)
    ?.details?.items;
  const snippet = items?.find((item) => item.type === 'node')?.snippet ?? 'unknown';
  return snippet.length > 100 ? `${snippet.slice(0, 97)}...` : snippet;
}

let kept = 0;

/**
 * One Lighthouse run of `url` in the browser on `port`, of the categories named. A run Lighthouse fails is
 * noted in `failures` and tried again, up to three times. With `keepIn`, the result is written there as
 * JSON, numbered in the order of the runs.
 */
export async function lighthouseOf(
  url: string,
  options: { port: number; categories: string[]; keepIn?: string; failures?: string[] },
): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port: options.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: options.categories,
    });
    const lhr = result?.lhr;
    const failure = !lhr ? 'no result' : lhr.runtimeError ? lhr.runtimeError.code : undefined;
    if (lhr && !failure) {
      if (options.keepIn) {
        mkdirSync(options.keepIn, { recursive: true });
        kept += 1;
        const { port, pathname } = new URL(url);
        const name = `${String(kept).padStart(2, '0')}-${options.categories.join('+')}-${port}${pathname.replace(/\W+/g, '-')}`;
        writeFileSync(join(options.keepIn, `${name}.json`), JSON.stringify(lhr));
      }
      return lhr;
    }
    options.failures?.push(`${new URL(url).pathname}: ${failure}`);
    console.log(`  Lighthouse on ${url} failed (${failure}); ${attempt < ATTEMPTS ? 'again' : 'giving up'}`);
    if (attempt >= ATTEMPTS)
      throw new Error(`Lighthouse on ${url}: ${lhr?.runtimeError?.message ?? failure}, ${attempt} times`);
  }
}

/**
 * Lighthouse as one section runs it: each result kept in `keepIn` when given, and the runs Lighthouse failed
 * and that were tried again noted in `failures`, which the section names in its figures' notes.
 */
export function lighthouseIn(keepIn: string | undefined): {
  failures: string[];
  of(url: string, port: number, categories: string[]): Promise<LighthouseResult>;
} {
  const failures: string[] = [];
  return {
    failures,
    of: (url, port, categories) => lighthouseOf(url, { port, categories, keepIn, failures }),
  };
}
