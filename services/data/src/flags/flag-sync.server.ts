import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceClientConstructor,
  type sendUnaryData,
  Server,
  ServerCredentials,
  loadPackageDefinition,
} from '@grpc/grpc-js';
import { fromJSON } from '@grpc/proto-loader';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { DataConfig } from '../config/data.config';
import { FeatureFlagsService } from './feature-flags.service';

interface FlagConfigurationMessage {
  flagConfiguration: string;
}

/**
 * flagd's sync contract (flagd.sync.v1, https://flagd.dev/reference/specifications/protos/), as far as a
 * provider in in-process mode uses it: `SyncFlags` streams the whole flag set on connect and again on every
 * change; `FetchAllFlags` answers it once. Field numbers are flagd's; the fields the shop does not send
 * (the sync context) are left out.
 */
const FLAG_SYNC_PROTO: Parameters<typeof fromJSON>[0] = {
  nested: {
    flagd: {
      nested: {
        sync: {
          nested: {
            v1: {
              nested: {
                SyncFlagsRequest: {
                  fields: { providerId: { type: 'string', id: 1 }, selector: { type: 'string', id: 2 } },
                },
                SyncFlagsResponse: { fields: { flagConfiguration: { type: 'string', id: 1 } } },
                FetchAllFlagsRequest: {
                  fields: { providerId: { type: 'string', id: 1 }, selector: { type: 'string', id: 2 } },
                },
                FetchAllFlagsResponse: { fields: { flagConfiguration: { type: 'string', id: 1 } } },
                FlagSyncService: {
                  methods: {
                    SyncFlags: {
                      requestType: 'SyncFlagsRequest',
                      responseType: 'SyncFlagsResponse',
                      responseStream: true,
                      comment: 'The whole flag set, then again at every change',
                    },
                    FetchAllFlags: {
                      requestType: 'FetchAllFlagsRequest',
                      responseType: 'FetchAllFlagsResponse',
                      comment: 'The whole flag set, once',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

function flagSyncService(): ServiceClientConstructor['service'] {
  const loaded = loadPackageDefinition(fromJSON(FLAG_SYNC_PROTO)) as unknown as {
    flagd: { sync: { v1: { FlagSyncService: ServiceClientConstructor } } };
  };
  return loaded.flagd.sync.v1.FlagSyncService.service;
}

/**
 * Serves the fault flags to every service's flagd provider (in-process mode) on `FLAGS_SYNC_PORT`. Inside the
 * cluster only: the gateway routes nothing here, and the flags are no secret (the NetworkPolicy admits the
 * shop's services alone).
 */
@Injectable()
export class FlagSyncServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly server = new Server();
  private boundPort?: number;

  constructor(
    private readonly flags: FeatureFlagsService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<DataConfig>,
  ) {
    this.server.addService(flagSyncService(), {
      SyncFlags: (call: ServerWritableStream<unknown, FlagConfigurationMessage>) => this.syncFlags(call),
      FetchAllFlags: (
        _call: ServerUnaryCall<unknown, FlagConfigurationMessage>,
        done: sendUnaryData<FlagConfigurationMessage>,
      ) => done(null, { flagConfiguration: this.flags.flagConfiguration() }),
    });
  }

  /** The port it listens on (`FLAGS_SYNC_PORT`, or the one the system chose for 0). */
  get port(): number | undefined {
    return this.boundPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { HOST, FLAGS_SYNC_PORT } = this.context.config;
    if (FLAGS_SYNC_PORT === undefined) return;
    await this.flags.loaded;
    const address = `${HOST.includes(':') ? `[${HOST}]` : HOST}:${FLAGS_SYNC_PORT}`;
    this.boundPort = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      ),
    );
    this.context.logger.info({ port: this.boundPort }, 'feature flags served to flagd providers');
  }

  /** Ends the providers' streams at once: they reconnect to another replica, or to this one's successor. */
  onApplicationShutdown(): void {
    if (this.boundPort !== undefined) this.server.forceShutdown();
  }

  private syncFlags(call: ServerWritableStream<unknown, FlagConfigurationMessage>): void {
    call.write({ flagConfiguration: this.flags.flagConfiguration() });
    const stop = this.flags.onChange((flagConfiguration) => call.write({ flagConfiguration }));
    call.on('cancelled', stop);
    call.on('close', stop);
    call.on('error', stop);
  }
}
