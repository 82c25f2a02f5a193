import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { startGateway, type RunningGateway } from '../../src/index';
import type { TestUpstream } from './upstream.server';

/** A logger that keeps its JSON lines in memory. */
export function memoryLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** Writes a kong.yml into a fresh temporary folder; returns its path and a cleanup. */
export function writeKongFile(yaml: string): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const path = join(dir, 'kong.yml');
  writeFileSync(path, yaml);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestGateway extends RunningGateway {
  lines: Record<string, unknown>[];
}

/** Starts a gateway on a free port for a kong.yml text (or file path), logging into memory. */
export async function startTestGateway(
  config: { yaml: string } | { path: string },
  upstreams: Record<string, string | string[]>,
  rateLimitFactor?: number,
): Promise<TestGateway> {
  const file = 'yaml' in config ? writeKongFile(config.yaml) : undefined;
  const { logger, lines } = memoryLogger();
  try {
    const gateway = await startGateway({
      configPath: file?.path ?? ('path' in config ? config.path : ''),
      port: 0,
      host: '127.0.0.1',
      upstreams,
      rateLimitFactor,
      logger,
    });
    return {
      ...gateway,
      lines,
      close: async () => {
        await gateway.close();
        file?.remove();
      },
    };
  } catch (error) {
    file?.remove();
    throw error;
  }
}

/**
 * Starts a gateway for a kong.yml whose service hosts are the given upstreams' names, each sent to its
 * upstream (and `others`, host to address, for hosts no test upstream serves). Closing the gateway closes
 * the upstreams too, as does a failed start.
 */
export async function startTestGatewayOver(
  config: { yaml: string } | { path: string },
  upstreams: readonly TestUpstream[],
  others: Record<string, string> = {},
): Promise<TestGateway> {
  const closeUpstreams = () => Promise.all(upstreams.map((upstream) => upstream.close()));
  try {
    const gateway = await startTestGateway(config, {
      ...Object.fromEntries(upstreams.map((upstream) => [upstream.name, upstream.address])),
      ...others,
    });
    return {
      ...gateway,
      close: async () => {
        await gateway.close();
        await closeUpstreams();
      },
    };
  } catch (error) {
    await closeUpstreams();
    throw error;
  }
}
