import { ok, type CommandHandler } from '../session/command-handler';
import { copyUidCode, parseTransferCommand, transferred } from './transfer-target';

/** COPY and UID COPY (RFC 3501 6.4.7, RFC 4315 COPYUID): new mails sharing the stored messages, flags and dates kept. */
export const copy: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, session, services }) => {
    const mailbox = session.selected()!;
    const { set, targetId } = await parseTransferCommand(args, session, services);
    const uids = mailbox.uidsIn(set, name === 'UID COPY');
    const transfer = await transferred(services.transfers.copy(session.userId(), mailbox.mailboxId, uids, targetId));
    await session.reportChanges();
    return ok(`${name} completed`, copyUidCode(transfer));
  },
};
