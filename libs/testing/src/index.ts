export { testDatabase, testBlobStore, testSettings } from './test-environment';
export { createTestUser, type TestUser } from './user-factory';
export { login } from './login';
