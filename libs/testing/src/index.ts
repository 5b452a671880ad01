export { testDatabase, testBlobStore, testSettings } from './test-environment';
export { createTestUser, type TestUser } from './user-factory';
export { createColleagueOf, addTestAlias, createTestGroup, addTestGroupMembers, setTestQuota, usedBytesOf } from './office-addresses';
export { login } from './login';
export { poll, waitFor, sleep } from './wait-for';
export { testQueuePrefix } from './test-queue-prefix';
export { startAppProcess, startNodeProcess, waitForHttp, waitForOutput, REPO_ROOT, TYPESCRIPT_ON_LOAD, type AppProcess } from './app-process';
export { freePort } from './free-port';
export { ensureReadReplica } from './read-replica';
export { startTcpProxy } from './tcp-proxy';
export { startTestS3, describeOnTestS3, type TestS3 } from './test-s3';
export {
  fetchOpenApiDocument,
  operationsOf,
  pathParameterMismatches,
  fuzzRequests,
  runFuzz,
  describeFindings,
  type OpenApiDocument,
  type Finding,
  type Hostile,
} from './openapi-fuzz';
export { ensureRedisCluster, runningRedisCluster } from './redis-cluster';
export { redisTargets, unlinkKeys } from './redis-targets';
export { busiestWindow } from './busiest-window';
export { accessTokenFor } from './access-token';
export { SendClient, type SendStatus } from './send-client';
export { TEST_INGEST_TOKEN, postInbound, type RunningIngestServer } from './inbound-client';
export { inboxOf, testQueues } from './ingest-pipeline';
export { openEventStream, type SseConnection, type SseEvent } from './sse-client';
export { startSendApiProcess, type SendApiProcess } from './send-api-process';
export { deliveryWorkerEnv, startDeliveryWorkerProcess } from './delivery-worker-process';
export { startIngestProcess } from './ingest-process';
export { startIngestWorkerProcess } from './ingest-worker-process';
export { startReadApiProcess, type ApiProcess } from './read-api-process';
export { storedSentCopy } from './sent-copy';
export { writeTestCertificate, type TestCertificate } from './test-certificate';
export { logFaultsAsExpected, withFaultsExpected, EXPECTED_FAULTS_APP } from './expected-faults';
export { unzip, type UnzippedEntry } from './unzip';
