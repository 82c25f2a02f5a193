import type { FactoryProvider } from '@nestjs/common';
import { type ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { SERVICE_CONTEXT, type ServiceContext } from '../service-context';

/**
 * The provider of a NATS client this service sends commands to `peer` with (`requestReply`), under
 * `token`. It connects on first use, reconnects forever while the broker is away (a command sent
 * meanwhile becomes a 503 at its time limit), is named `<service>-to-<peer>` on the broker, and
 * closes when the app shuts down.
 */
export function natsClientProvider(token: symbol | string, peer: string): FactoryProvider<ClientProxy> {
  return {
    provide: token,
    useFactory: (context: ServiceContext) => {
      const client = ClientProxyFactory.create({
        transport: Transport.NATS,
        options: {
          servers: context.config.NATS_URL.split(','),
          name: `${context.name}-to-${peer}`,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
        },
      });
      // Nest calls the hook on any provider that has one.
      return Object.assign(client, { onApplicationShutdown: () => client.close() });
    },
    inject: [SERVICE_CONTEXT],
  };
}
