export { testDatabase, testBlobStore, testSettings } from './test-environment';
export { createTestUser, type TestUser } from './user-factory';
export { login } from './login';
export { waitFor, sleep, type WaitOptions } from './wait-for';
export { testQueuePrefix } from './test-queue-prefix';
export { startAppProcess, waitForHttp, waitForOutput, freePort, REPO_ROOT, type AppProcess, type AppProcessOptions } from './app-process';
export { ensureReadReplica } from './read-replica';
export { startTcpProxy, type TcpProxy } from './tcp-proxy';
export { fetchOpenApiDocument, operationsOf, pathParameterMismatches, fuzzRequests, runFuzz, describeFindings, type OpenApiDocument, type Operation, type FuzzOptions, type FuzzRequest, type Finding, type FuzzRunOptions, type Hostile } from './openapi-fuzz';
