import { noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';
import { folderChangeRefused, newFolderName } from './mailbox-changes';

/** CREATE (RFC 3501 6.3.3): a folder, made as the webmail makes one. */
export const create: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session, services }) => {
    noMore(args, 1);
    const name = newFolderName(mailboxNameArgument(args[0], session));
    await services.changeMailboxes.create(session.userId(), name).catch(folderChangeRefused(name, 'created'));
    return ok('CREATE completed');
  },
};
