import { ImapCommandError, noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';
import { folderChangeRefused } from './mailbox-changes';

/** DELETE (RFC 3501 6.3.4): a folder of the user's deleted as in the webmail, its mail moved to Trash; system folders stay. */
export const deleteMailbox: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session, services }) => {
    noMore(args, 1);
    const name = mailboxNameArgument(args[0], session);
    const mailbox = await services.mailboxes.find(session.userId(), name);
    if (!mailbox) throw new ImapCommandError(`no folder named "${name}"`, 'NO', 'NONEXISTENT');
    const { movedToTrash } = await services.changeMailboxes.remove(session.userId(), mailbox.id).catch(folderChangeRefused(mailbox.name, 'deleted'));
    return ok(movedToTrash > 0 ? `DELETE completed; its ${movedToTrash} mails are in Trash` : 'DELETE completed');
  },
};
