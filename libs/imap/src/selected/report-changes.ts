import type { ImapFlagChange } from '@letterbox/mail';
import { formatSequenceSet } from '../protocol/sequence-set';
import { untagged } from '../protocol/response-format';
import type { ImapServices, Session } from '../session/command-handler';
import { flagList } from './message-flags';
import type { SelectedMailbox } from './selected-mailbox';

export interface ReportOptions {
  /**
   * False while answering FETCH, STORE or SEARCH, when no EXPUNGE may be sent (RFC 3501 7.4.1): the UIDs that
   * left are held, their numbers kept, until a command that may tell them.
   */
  expunges?: boolean;
}

/**
 * Tells the client what changed in its selected mailbox since it last looked (RFC 3501 7.4.1, RFC 7162 3.2.10):
 * the UIDs that left (EXPUNGE, or VANISHED once QRESYNC is on), the mail that came (EXISTS), and the flags that
 * changed (FETCH, with MODSEQ once CONDSTORE is on). The state is read before the changes, and the session moves
 * on to that state's MODSEQ only, so a change committed meanwhile is told again next time rather than missed.
 */
export async function reportChanges(session: Session, services: ImapServices, options: ReportOptions = {}): Promise<void> {
  const mailbox = session.selected();
  if (!mailbox) return;
  const userId = session.userId();
  const state = await services.mailboxState(userId, mailbox.mailboxId);
  if (!state) {
    session.send(untagged('BYE The selected mailbox was deleted or locked'));
    session.close();
    return;
  }
  if (state.highestModseq <= mailbox.highestModseq) {
    if (options.expunges !== false) reportVanished(session, mailbox, mailbox.takeHeldVanished());
    return;
  }
  const since = mailbox.highestModseq;
  const vanished = (await services.messages.vanishedSince(userId, mailbox.mailboxId, since)).filter((uid) => mailbox.seqOf(uid) !== undefined);
  const changed = await services.messages.changedSince(userId, mailbox.mailboxId, since);
  if (options.expunges === false) mailbox.holdVanished(vanished);
  else
    reportVanished(
      session,
      mailbox,
      [...new Set([...mailbox.takeHeldVanished(), ...vanished])].sort((a, b) => a - b),
    );
  const known = changed.filter((change) => mailbox.seqOf(change.uid) !== undefined);
  const added = changed.filter((change) => change.uid > mailbox.lastUid).map((change) => change.uid);
  if (added.length > 0) {
    mailbox.append(added);
    session.send(untagged(`${mailbox.exists} EXISTS`));
  }
  known.forEach((change) => session.send(flagsUpdate(session, mailbox, change)));
  mailbox.highestModseq = state.highestModseq;
}

/** EXPUNGE from the highest sequence number down, so each number is still right when the client reads it. */
export function reportVanished(session: Session, mailbox: SelectedMailbox, uids: readonly number[]): void {
  if (uids.length === 0) return;
  if (session.enabled.has('QRESYNC')) session.send(untagged(`VANISHED ${formatSequenceSet(uids)}`));
  else
    uids
      .map((uid) => mailbox.seqOf(uid)!)
      .reverse()
      .forEach((seq) => session.send(untagged(`${seq} EXPUNGE`)));
  mailbox.expunge(new Set(uids));
}

/** `* 3 FETCH (UID 7 FLAGS (\Seen) MODSEQ (12))`: a message's flags changed. */
export function flagsUpdate(session: Session, mailbox: SelectedMailbox, change: ImapFlagChange): string[] {
  const modseq = session.enabled.has('CONDSTORE') ? ` MODSEQ (${change.modseq})` : '';
  return untagged(`${mailbox.seqOf(change.uid)} FETCH (UID ${change.uid} FLAGS ${flagList(change.flags)}${modseq})`) as string[];
}
