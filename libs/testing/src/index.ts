export { testDatabase, testBlobStore, testSettings } from './test-environment';
export { createTestUser, type TestUser } from './user-factory';
export { login } from './login';
export { waitFor, sleep, type WaitOptions } from './wait-for';
export { testQueuePrefix } from './test-queue-prefix';
