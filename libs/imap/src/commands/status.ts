import { untagged } from '../protocol/response-format';
import { ImapCommandError, listOf, noMore } from '../protocol/tokens';
import { ok, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument, mailboxNamePart } from './mailbox-names';
import { statusItems, statusValues } from './status-items';

/** STATUS: a mailbox's counts from its counters, never a count of its mail. */
export const status: CommandHandler = {
  states: SIGNED_IN,
  run: async ({ args, session, services }) => {
    noMore(args, 2);
    const name = mailboxNameArgument(args[0], session);
    const items = statusItems(listOf(args[1], 'STATUS items'));
    const mailbox = await services.mailboxes.find(session.userId(), name);
    if (!mailbox) throw new ImapCommandError(`No mailbox ${name}`, 'NO', 'NONEXISTENT');
    if (items.includes('HIGHESTMODSEQ')) session.enable('CONDSTORE');
    const values = await statusValues(mailbox, items, (mailboxId) => services.mailboxState(session.userId(), mailboxId));
    session.send(untagged('STATUS ', mailboxNamePart(mailbox.name, session), ` (${values})`));
    return ok('STATUS completed');
  },
};
