export type { RunningServer } from './running-server.js';
export { startManagedProcess, type ExitInfo, type ManagedProcessOptions } from './managed-process.js';
export { freePort } from './free-port.util.js';
export {
  startEmbeddedMongo,
  type EmbeddedMongo,
  type EmbeddedMongoOptions,
} from './embedded-mongo.server.js';
export { startEmbeddedNats, type EmbeddedNats, type EmbeddedNatsOptions } from './embedded-nats.server.js';
export { provideMongo, provideNats } from './test-servers.provider.js';
export { uniqueDbName, mongoUrlFor } from './database-names.util.js';
export {
  checkerPath,
  ensureToolsInstalled,
  toolPaths,
  type CheckerName,
  type ToolPaths,
} from './tool-paths.js';
export { startServiceProcess, type ServiceProcess, type ServiceProcessOptions } from './service-process.js';
export { createTestTokens, type TestTokens, type TestTokenOptions } from './test-tokens.factory.js';
export { solidPng } from './png-image.js';
