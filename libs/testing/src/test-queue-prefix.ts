import { randomUUID } from 'node:crypto';

/** A queue namespace of the test file's own, so its jobs never meet another file's workers. */
export function testQueuePrefix(): string {
  return `test-${randomUUID().slice(0, 8)}`;
}
