export { connectNatsClient, refusalOf } from './nats-commands';
export { publishRawEvent } from './raw-events';
export { startServiceApp, type ServiceApp, type ServiceAppOptions } from './service-app';
export { startedForTests } from './started-for-tests';
export {
  startServiceUnderTest,
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
} from './service-under-test';
