import type { ImapFlagChange } from '@letterbox/mail';
import { untagged, type ResponsePart } from '../protocol/response-format';
import { formatSequenceSet } from '../protocol/sequence-set';
import type { ImapServices, Session } from '../session/command-handler';
import { flagChangePages } from './flag-changes';
import { flagList } from './message-flags';
import { ResponseBuffer } from './response-buffer';
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
  const out = new ResponseBuffer(session);
  const since = mailbox.highestModseq;
  const vanished = since < state.highestModseq ? await services.messages.vanishedSince(userId, mailbox.mailboxId, since) : [];
  const known = vanished.filter((uid) => mailbox.seqOf(uid) !== undefined);
  if (options.expunges === false) mailbox.holdVanished(known);
  else
    await reportVanished(
      out,
      session,
      mailbox,
      [...new Set([...mailbox.takeHeldVanished(), ...known])].sort((a, b) => a - b),
    );
  if (since < state.highestModseq) {
    const lastKnown = mailbox.lastUid;
    for await (const page of flagChangePages(services, userId, mailbox.mailboxId, since)) {
      const added = page.filter((change) => change.uid > lastKnown).map((change) => change.uid);
      for (const change of page) if (change.uid <= lastKnown && mailbox.seqOf(change.uid) !== undefined) await out.add(flagsUpdate(session, mailbox, change));
      if (added.length > 0) {
        mailbox.append(added);
        await out.add(untagged(`${mailbox.exists} EXISTS`));
      }
    }
    mailbox.highestModseq = state.highestModseq;
  }
  await out.flush();
}

/** EXPUNGE from the highest sequence number down, so each number is still right when the client reads it. */
async function reportVanished(out: ResponseBuffer, session: Session, mailbox: SelectedMailbox, uids: readonly number[]): Promise<void> {
  if (uids.length === 0) return;
  if (session.enabled.has('QRESYNC')) await out.add(untagged(`VANISHED ${formatSequenceSet(uids)}`));
  else for (let index = uids.length - 1; index >= 0; index--) await out.add(untagged(`${mailbox.seqOf(uids[index])} EXPUNGE`));
  mailbox.expunge(new Set(uids));
}

/** `* 3 FETCH (UID 7 FLAGS (\Seen) MODSEQ (12))`: a message's flags changed. */
export function flagsUpdate(session: Session, mailbox: SelectedMailbox, change: ImapFlagChange): ResponsePart[] {
  const modseq = session.enabled.has('CONDSTORE') ? ` MODSEQ (${change.modseq})` : '';
  return untagged(`${mailbox.seqOf(change.uid)} FETCH (UID ${change.uid} FLAGS ${flagList(change.flags)}${modseq})`);
}
