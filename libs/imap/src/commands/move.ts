import { untagged } from '../protocol/response-format';
import { ImapCommandError } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { copyUidCode, parseTransferCommand, transferred } from './transfer-target';

/**
 * MOVE and UID MOVE (RFC 6851): the mails moved in one statement as the webmail moves them, COPYUID sent untagged
 * before the EXPUNGE (or VANISHED) of the messages that left.
 */
export const move: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, session, services }) => {
    const mailbox = session.selected()!;
    if (mailbox.readOnly) throw new ImapCommandError('The mailbox is read-only', 'NO');
    const { set, targetId } = await parseTransferCommand(args, session, services);
    const uids = mailbox.uidsIn(set, name === 'UID MOVE');
    const transfer = await transferred(services.transfers.move(session.userId(), mailbox.mailboxId, uids, targetId));
    const code = copyUidCode(transfer);
    if (code) session.send(untagged(`OK [${code}] Moved`));
    await session.reportChanges();
    return ok(`${name} completed`);
  },
};
