import { connect, type NatsConnection } from 'nats';
import type { Logger } from 'pino';

/** Connects to NATS and never gives up: the first connect waits for the server, later drops reconnect forever. */
export async function connectNats(url: string, name: string, logger: Logger): Promise<NatsConnection> {
  const connection = await connect({
    servers: url.split(','),
    name,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect' || status.type === 'error') {
        logger.warn({ nats: status.type, data: String(status.data) }, 'nats connection status');
      }
    }
  })();
  return connection;
}
