import { formatRanges } from '../protocol/sequence-set';
import { untagged } from '../protocol/response-format';
import { ImapCommandError, noMore } from '../protocol/tokens';
import { PERMANENT_FLAGS, SYSTEM_FLAGS } from '../selected/message-flags';
import { knownOnly, parseSelectParameters, type QresyncParameter } from '../selected/qresync-parameter';
import { flagChangePages } from '../selected/flag-changes';
import { flagsUpdate } from '../selected/report-changes';
import { ResponseBuffer } from '../selected/response-buffer';
import { SelectedMailbox } from '../selected/selected-mailbox';
import { ok, type CommandContext, type CommandHandler } from '../session/command-handler';
import { SIGNED_IN } from '../session/session-state';
import { mailboxNameArgument } from './mailbox-names';

/**
 * SELECT and EXAMINE (RFC 3501 6.3.1-2, RFC 7162 3.1.8 and 3.2.5): opens a mailbox, read-only for EXAMINE. The
 * mailbox's numbers are read before its UIDs, so mail that comes meanwhile is in the UIDs and told again as a
 * change rather than missed. With QRESYNC the client is told what left and changed since it last knew the mailbox.
 */
export const select: CommandHandler = {
  states: SIGNED_IN,
  run: async (context) => {
    const { args, session, services, name } = context;
    noMore(args, 2);
    const mailboxName = mailboxNameArgument(args[0], session);
    const parameters = parseSelectParameters(args[1]);
    if (parameters.qresync && !session.enabled.has('QRESYNC')) throw new ImapCommandError('QRESYNC must be enabled first');
    if (session.selected()) {
      session.unselect();
      session.send(untagged('OK [CLOSED] Previous mailbox closed'));
    }
    const mailbox = await services.mailboxes.find(session.userId(), mailboxName);
    const state = mailbox && (await services.mailboxState(session.userId(), mailbox.id));
    if (!mailbox || !state) throw new ImapCommandError(`No mailbox ${mailboxName}`, 'NO', 'NONEXISTENT');
    if (parameters.condstore) session.enable('CONDSTORE');
    const uidRuns = await services.messages.uidRuns(session.userId(), mailbox.id);
    const readOnly = name === 'EXAMINE';
    const selected = new SelectedMailbox({
      mailboxId: mailbox.id,
      name: mailbox.name,
      readOnly,
      uidValidity: state.uidValidity,
      highestModseq: state.highestModseq,
      uidRuns,
    });
    const uidNext = Math.max(state.uidNext, selected.lastUid + 1);
    session.send(untagged(`FLAGS (${SYSTEM_FLAGS.join(' ')})`));
    session.send(untagged(`OK [PERMANENTFLAGS (${readOnly ? '' : PERMANENT_FLAGS.join(' ')})] Flags the client may change`));
    session.send(untagged(`${selected.exists} EXISTS`));
    session.send(untagged('0 RECENT'));
    session.send(untagged(`OK [UIDVALIDITY ${state.uidValidity}] UIDs valid`));
    session.send(untagged(`OK [UIDNEXT ${uidNext}] Predicted next UID`));
    session.send(untagged(`OK [HIGHESTMODSEQ ${state.highestModseq}] Highest`));
    session.select(selected);
    if (parameters.qresync && parameters.qresync.uidValidity === state.uidValidity) await resynchronize(context, selected, parameters.qresync);
    return ok(`${name} completed`, readOnly ? 'READ-ONLY' : 'READ-WRITE');
  },
};

/** VANISHED (EARLIER) for the known UIDs that left since the client's MODSEQ, then the flags changed since. */
async function resynchronize({ session, services }: CommandContext, selected: SelectedMailbox, qresync: QresyncParameter): Promise<void> {
  const userId = session.userId();
  const out = new ResponseBuffer(session);
  const vanished = knownOnly(await services.messages.vanishedSince(userId, selected.mailboxId, qresync.modseq), qresync);
  if (vanished.length > 0) await out.add(untagged(`VANISHED (EARLIER) ${formatRanges(vanished)}`));
  for await (const page of flagChangePages(services, userId, selected.mailboxId, qresync.modseq)) {
    for (const change of page) if (selected.seqOf(change.uid) !== undefined) await out.add(flagsUpdate(session, selected, change));
  }
  await out.flush();
}
