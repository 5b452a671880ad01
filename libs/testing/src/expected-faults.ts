import { nameProcess, processName } from '@letterbox/observability';

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

/**
 * The same for one test of a file whose other tests provoke no faults: the lines logged in this process
 * while `work` runs say `"app":"expected-faults"`, and the process's own name comes back after it.
 */
export async function withFaultsExpected<T>(work: () => Promise<T>): Promise<T> {
  const name = processName();
  nameProcess(EXPECTED_FAULTS_APP);
  try {
    return await work();
  } finally {
    nameProcess(name);
  }
}
