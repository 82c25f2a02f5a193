export {
  startServiceUnderTest,
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
} from './service-under-test';
