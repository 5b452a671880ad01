import { ImapOverQuotaError, MailboxLockedError, MailboxNotFoundError, type ImapTransfer } from '@letterbox/mail';
import { formatSequenceSet, parseMessageSet, type MessageSet } from '../protocol/sequence-set';
import { atomOf, ImapCommandError, noMore, type Token } from '../protocol/tokens';
import type { ImapServices, Session } from '../session/command-handler';
import { mailboxNameArgument } from './mailbox-names';

export interface TransferCommand {
  set: MessageSet;
  targetId: number;
}

/** `COPY set mailbox` and `MOVE set mailbox`: the destination must be one of the user's visible mailboxes (TRYCREATE). */
export async function parseTransferCommand(args: Token[], session: Session, services: ImapServices): Promise<TransferCommand> {
  noMore(args, 2);
  const set = parseMessageSet(atomOf(args[0], 'a sequence set'));
  const name = mailboxNameArgument(args[1], session);
  const target = await services.mailboxes.find(session.userId(), name);
  if (!target) throw new ImapCommandError(`No mailbox ${name}`, 'NO', 'TRYCREATE');
  return { set, targetId: target.id };
}

/** UIDPLUS's `COPYUID validity source destination` (RFC 4315 3), both sets in the same order; none for nothing copied. */
export function copyUidCode(transfer: ImapTransfer): string | undefined {
  if (transfer.sourceUids.length === 0) return undefined;
  return `COPYUID ${transfer.destinationUidValidity} ${formatSequenceSet(transfer.sourceUids)} ${formatSequenceSet(transfer.destinationUids)}`;
}

/** A copy or move, its refusals as IMAP answers them: the destination gone or locked meanwhile, the quota reached. */
export async function transferred(transfer: Promise<ImapTransfer>): Promise<ImapTransfer> {
  try {
    return await transfer;
  } catch (error) {
    if (error instanceof ImapOverQuotaError) throw new ImapCommandError('The copies would take you past your storage quota', 'NO', 'OVERQUOTA');
    if (error instanceof MailboxNotFoundError || error instanceof MailboxLockedError) throw new ImapCommandError('The mailbox is gone', 'NO', 'TRYCREATE');
    throw error;
  }
}
