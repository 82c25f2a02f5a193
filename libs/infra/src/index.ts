// Local infrastructure: processes, tool paths, the embedded servers, free ports, the repository root.
// docs/decisions/0014-local-infrastructure.md says what lives here and what does not.
export {
  observabilityWanted,
  repoRoot,
  toolPaths,
  toolVersions,
  type CheckerName,
  type ToolPaths,
  type ToolVersions,
} from './paths.cjs';
export { checkerPath, ensureToolsInstalled } from './tools.js';
export { startProcess, tailOf, type ExitInfo, type ManagedProcess, type ProcessOptions } from './process.js';
export { freePort } from './free-port.js';
export {
  startControlPlane,
  type ControlPlane,
  type ControlPlaneOptions,
  type KubectlOptions,
  type KubectlResult,
} from './control-plane.js';
export { startEmbeddedMongo, type EmbeddedMongo, type EmbeddedMongoOptions } from './embedded-mongo.js';
export { startEmbeddedNats, type EmbeddedNats, type EmbeddedNatsOptions } from './embedded-nats.js';
export {
  mailCatcherMessages,
  startMailCatcher,
  type CaughtMail,
  type MailCatcher,
  type MailCatcherOptions,
} from './mail-catcher.js';
export {
  planNatsCluster,
  startNatsCluster,
  startScratchNatsCluster,
  waitForNatsCluster,
  type NatsCluster,
  type NatsClusterPlan,
  type NatsNodePlan,
} from './nats-cluster.js';
export {
  serviceMain,
  startServiceProcess,
  type ServiceProcess,
  type ServiceProcessOptions,
} from './service-process.js';
