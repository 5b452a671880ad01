import type { Database } from '@letterbox/db';
import { returnSentCopyToDrafts } from '@letterbox/mail';
import { SendAlreadyStartedError, SendNotFoundError } from './send-errors';
import type { SendOutbox } from './send-outbox';
import { sendView, type SendView } from './send-view';

/** A user's own sends: their status, and undo while they have not gone out. */
export class UserSends {
  constructor(
    private readonly db: Database,
    private readonly outbox: SendOutbox,
  ) {}

  async status(userId: number, sendId: number): Promise<SendView> {
    const send = await this.db.prisma.outboundSend.findFirst({ where: { id: BigInt(sendId), userId } });
    if (!send) throw new SendNotFoundError(sendId);
    return sendView(send);
  }

  /**
   * Cancels a send that no worker has started. The status check and the change are one
   * statement, so a worker claiming the send at the same moment either wins or sees it
   * cancelled. The Sent copy goes back to Drafts, as an undone send does, and the send's
   * job leaves the queue after the transaction, never inside it.
   */
  async cancel(userId: number, sendId: number): Promise<SendView> {
    const cancelled = await this.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.outboundSend.updateMany({ where: { id: BigInt(sendId), userId, status: 'queued' }, data: { status: 'cancelled' } });
      if (count === 0) return undefined;
      const send = await tx.outboundSend.findUniqueOrThrow({ where: { id: BigInt(sendId) } });
      // A copy still pending is stored in Drafts by the worker, which finds the send cancelled.
      if (send.sentMailId !== null && !send.sentCopyPending) await returnSentCopyToDrafts(tx, userId, send.sentMailId);
      return send;
    });
    if (cancelled) {
      await this.outbox.withdraw(sendId);
      return sendView(cancelled);
    }
    const current = await this.status(userId, sendId);
    if (current.status === 'cancelled') return current;
    throw new SendAlreadyStartedError(sendId, current.status);
  }
}
