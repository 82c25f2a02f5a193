export type { RunningServer } from './running-server.js';
// The local infrastructure tests need, from @shop/infra (docs/decisions/0014-local-infrastructure.md).
export {
  checkerPath,
  ensureToolsInstalled,
  freePort,
  mailCatcherMessages,
  repoRoot,
  startEmbeddedMongo,
  startEmbeddedNats,
  startMailCatcher,
  startScratchNatsCluster,
  startProcess,
  startServiceProcess,
  toolPaths,
  type CheckerName,
  type EmbeddedMongo,
  type EmbeddedMongoOptions,
  type EmbeddedNats,
  type EmbeddedNatsOptions,
  type ExitInfo,
  type MailCatcher,
  type ManagedProcess,
  type NatsCluster,
  type ServiceProcess,
  type ServiceProcessOptions,
  type ToolPaths,
} from '@shop/infra';
export { provideMongo, provideNats } from './test-servers.provider.js';
export { uniqueDbName, mongoUrlFor } from './database-names.util.js';
export { createTestTokens, type TestTokens, type TestTokenOptions } from './test-tokens.factory.js';
export { pngChunk, solidPng } from './png-image.js';
export { until, type UntilOptions } from './until.js';
export { jsonCall, type JsonAnswer, type JsonCallOptions } from './json-call.js';
