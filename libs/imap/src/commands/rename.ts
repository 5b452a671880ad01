import { ImapCommandError, noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';
import { folderChangeRefused, newFolderName } from './mailbox-changes';

/** RENAME (RFC 3501 6.3.5): a folder of the user's renamed as in the webmail; INBOX and the other system folders keep their names. */
export const rename: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session, services }) => {
    noMore(args, 2);
    const from = mailboxNameArgument(args[0], session);
    const to = newFolderName(mailboxNameArgument(args[1], session));
    const mailbox = await services.mailboxes.find(session.userId(), from);
    if (!mailbox) throw new ImapCommandError(`no folder named "${from}"`, 'NO', 'NONEXISTENT');
    await services.changeMailboxes.rename(session.userId(), mailbox.id, to).catch(folderChangeRefused(mailbox.name, 'renamed'));
    return ok('RENAME completed');
  },
};
