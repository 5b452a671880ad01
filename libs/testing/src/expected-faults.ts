import { nameProcess } from '@letterbox/observability';

/** The `app` of the log lines a test file's deliberate faults make: a reader of the test output passes them by. */
export const EXPECTED_FAULTS_APP = 'expected-faults';

/**
 * For a test file that provokes faults on purpose (a provider refusing, Redis away, FCM giving up):
 * the warnings and errors the apps it runs in this process log then say `"app":"expected-faults"`,
 * so that a line without it in the test output is a real one.
 */
export function logFaultsAsExpected(): void {
  nameProcess(EXPECTED_FAULTS_APP);
}
