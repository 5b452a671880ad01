import type { Database } from '@letterbox/db';
import type { JobAttempt, JobPayloads } from '@letterbox/queue';
import type { TestUser } from '@letterbox/testing';
import type { SignedInSender } from '../sender-directory';
import type { SendRequest } from '../submit/send-request';

type DeliverSend = JobPayloads['deliver-send'];

/** The user as the send API signs them in: their primary address is the one they send from. */
export function senderOf(user: TestUser): SignedInSender {
  return { userId: user.id, officeId: user.officeId, email: user.email, displayName: user.displayName, addresses: [user.email] };
}

/** The quota of the tests' users: room enough for whatever a test sends. */
export const TEST_QUOTA_BYTES = 2 * 1024 ** 3;

/** A request with the test's fields: by default a text mail, one message for every recipient, no Sent copy. */
export function sendRequest(fields: Partial<SendRequest>): SendRequest {
  return {
    to: [],
    cc: [],
    bcc: [],
    subject: 'Quarterly figures',
    text: 'Here they are.',
    important: false,
    saveCopy: false,
    sendSeparately: false,
    requestReadReceipt: false,
    attachments: [],
    ...fields,
  };
}

/** A run of a `deliver-send` job, keeping the payload changes it is told of. */
export class FakeAttempt implements JobAttempt<DeliverSend> {
  readonly payloadUpdates: DeliverSend[] = [];

  constructor(
    readonly number = 1,
    readonly final = false,
  ) {}

  async updatePayload(payload: DeliverSend): Promise<void> {
    this.payloadUpdates.push(payload);
  }
}

/** What a send's row records of its delivery. */
export async function deliveryRecord(db: Database, sendId: number) {
  const send = await db.prisma.outboundSend.findUniqueOrThrow({ where: { id: BigInt(sendId) } });
  const { status, attempts, lastError, deliveredTo, refusedTo, attemptedTo, sentAt } = send;
  return { status, attempts, lastError, deliveredTo, refusedTo, attemptedTo, sentAt };
}
