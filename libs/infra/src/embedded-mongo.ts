import { join } from 'node:path';
import { toolPaths } from './paths.cjs';
import { type ManagedProcess, startProcess } from './process.js';
import { ensureToolsInstalled } from './tools.js';

export interface EmbeddedMongoOptions {
  /** TCP port; 0 or absent lets the server pick a free one (no race with other starters). */
  port?: number;
  /** H2 MVStore file to keep data in; absent means in memory. */
  dataFile?: string;
  /** Also append the server's output to this file. */
  logFile?: string;
}

/** The running database: `url` is `mongodb://127.0.0.1:<port>`. */
export type EmbeddedMongo = ManagedProcess & { url: string; port: number };

// A small heap and the serial collector suit a test database on a 2-core machine.
const DEFAULT_JAVA_OPTS = ['-Xmx512m', '-XX:+UseSerialGC'];

/** Starts the embedded MongoDB-wire database (mongo-java-server on H2) and resolves once it listens. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  ensureToolsInstalled();
  const javaOpts = process.env['SHOP_MONGO_JAVA_OPTS']?.split(/\s+/).filter(Boolean) ?? DEFAULT_JAVA_OPTS;
  const javaHome = process.env['JAVA_HOME'];
  const args = [
    ...javaOpts,
    '-cp',
    toolPaths().mongoClasspath,
    'shop.EmbeddedMongo',
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    // The server exits when this pipe closes, so it never outlives a parent that was SIGKILLed.
    '--exit-on-stdin-close',
    ...(options.dataFile ? ['--data', options.dataFile] : []),
  ];
  const { ready: port, ...server } = await startProcess({
    name: 'embedded MongoDB (mongo-java-server)',
    command: javaHome ? join(javaHome, 'bin', 'java') : 'java',
    args,
    readyWhen: (line) => {
      const match = /^LISTENING (\d+)$/.exec(line.trim());
      return match ? Number(match[1]) : undefined;
    },
    timeoutMs: 30_000,
    logFile: options.logFile,
    keepStdin: true,
    signalOnExit: 'SIGTERM',
  });
  return { ...server, url: `mongodb://127.0.0.1:${port}`, port };
}
