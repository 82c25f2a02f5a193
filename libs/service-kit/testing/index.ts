export { connectNatsClient, refusalOf } from './nats-commands';
export { publishRawEvent } from './raw-events';
export { startServiceApp, type ServiceApp, type ServiceAppOptions } from './service-app';
export {
  startServiceUnderTest,
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
} from './service-under-test';
export { adminActionsOn } from './admin-actions';
export { flagSetFile, type FlagSetFile } from './flag-set-file';
