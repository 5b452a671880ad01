import { formatSequenceSet } from '../protocol/sequence-set';
import { parseStoreCommand } from '../protocol/store-arguments';
import { ImapCommandError } from '../protocol/tokens';
import { flagsUpdate } from '../selected/report-changes';
import { ok, type CommandHandler } from '../session/command-handler';

/** Messages whose unchanged flags are read back at a time, for the FETCH a STORE without .SILENT answers. */
const CHUNK = 500;

/**
 * STORE and UID STORE (RFC 3501 6.4.6, RFC 7162 3.1.3): the flags changed in one statement the way the webmail
 * changes them, then the client told every change since it last looked, its own included (FETCH FLAGS), and,
 * unless .SILENT, the flags of the messages that were already as asked. Messages changed after UNCHANGEDSINCE are
 * left alone and named in MODIFIED.
 */
export const store: CommandHandler = {
  states: ['selected'],
  run: async ({ args, name, session, services }) => {
    const mailbox = session.selected()!;
    if (mailbox.readOnly) throw new ImapCommandError('The mailbox is read-only', 'NO');
    const byUid = name === 'UID STORE';
    const command = parseStoreCommand(args);
    if (command.store.unchangedSince !== undefined) session.enable('CONDSTORE');
    const userId = session.userId();
    const uids = mailbox.uidsIn(command.set, byUid);
    const outcome = await services.flagChanges.store(userId, mailbox.mailboxId, uids, command.store);
    await session.reportChanges({ expunges: false });
    if (!command.silent) {
      const told = new Set([...outcome.changed, ...outcome.modified]);
      const rest = uids.filter((uid) => !told.has(uid));
      for (let from = 0; from < rest.length; from += CHUNK) {
        const messages = await services.messages.byUids(userId, mailbox.mailboxId, rest.slice(from, from + CHUNK));
        for (const message of messages) if (mailbox.seqOf(message.uid) !== undefined) session.send(flagsUpdate(session, mailbox, message));
      }
    }
    if (outcome.modified.length === 0) return ok(`${name} completed`);
    const modified = byUid ? outcome.modified : outcome.modified.flatMap((uid) => mailbox.seqOf(uid) ?? []);
    return ok('Some messages changed since UNCHANGEDSINCE', `MODIFIED ${formatSequenceSet(modified)}`);
  },
};
