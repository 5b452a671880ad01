import { parseFetchCommand } from '../protocol/fetch-attributes';
import { formatRanges, rangesInSet, type MessageSet } from '../protocol/sequence-set';
import { untagged } from '../protocol/response-format';
import { ImapCommandError } from '../protocol/tokens';
import { planFetch, type FetchPlan } from '../selected/fetch-plan';
import { writeFetchResponse } from '../selected/fetch-response';
import { ResponseBuffer } from '../selected/response-buffer';
import type { SelectedMailbox } from '../selected/selected-mailbox';
import { ok, type CommandContext, type CommandHandler } from '../session/command-handler';

/** Messages read from the database at a time: a FETCH of 1:* over a million holds this many, written before the next. */
const CHUNK = 500;

/**
 * FETCH and UID FETCH (RFC 3501 6.4.5, 6.4.8; RFC 7162 3.1.4 CHANGEDSINCE, 3.2.6 VANISHED): the messages in
 * chunks, each chunk's responses written (the socket drained) before the next is read. Reading a section
 * without PEEK sets \Seen in a read-write mailbox, the way the webmail does, which announces it.
 */
export const fetch: CommandHandler = {
  states: ['selected'],
  run: async (context) => {
    const { args, name, session } = context;
    const mailbox = session.selected()!;
    const byUid = name === 'UID FETCH';
    const command = parseFetchCommand(args);
    if (command.vanished && !(byUid && session.enabled.has('QRESYNC'))) throw new ImapCommandError('VANISHED needs UID FETCH and QRESYNC enabled');
    const asksModseq = command.changedSince !== undefined || command.items.some((item) => item.kind === 'MODSEQ');
    if (asksModseq) session.enable('CONDSTORE');
    const plan = planFetch(command.items, { withUid: byUid || session.enabled.has('QRESYNC'), modseq: command.changedSince !== undefined });
    if (command.vanished) await reportVanishedEarlier(context, mailbox, command.set, command.changedSince!);
    const out = new ResponseBuffer(session);
    for (const [start, end] of mailbox.indexRanges(command.set, byUid)) {
      for (let from = start; from < end; from += CHUNK) {
        await fetchChunk(context, mailbox, plan, mailbox.uidsBetween(from, Math.min(end, from + CHUNK)), command.changedSince, out);
      }
    }
    await out.flush();
    return ok(`${name} completed`);
  },
};

async function fetchChunk(
  { session, services }: CommandContext,
  mailbox: SelectedMailbox,
  plan: FetchPlan,
  uids: number[],
  changedSince: number | undefined,
  out: ResponseBuffer,
): Promise<void> {
  const userId = session.userId();
  const found = await services.messages.byUids(userId, mailbox.mailboxId, uids, { layout: plan.needsTree });
  const messages = changedSince === undefined ? found : found.filter((message) => message.modseq > changedSince);
  const unseen = plan.setsSeen && !mailbox.readOnly ? messages.filter((message) => !message.flags.seen) : [];
  if (unseen.length > 0) {
    await services.markSeen(
      userId,
      unseen.map((message) => message.mailId),
    );
    unseen.forEach((message) => (message.flags.seen = true));
  }
  const trees = plan.needsTree
    ? await services.mimeTrees.treesOf(messages.map((message) => ({ id: message.mailId, storageKey: message.storageKey, layout: message.layout! })))
    : [];
  for (const [index, message] of messages.entries()) {
    const seq = mailbox.seqOf(message.uid);
    if (seq === undefined) continue;
    const tree = trees[index];
    await writeFetchResponse(out, plan, { seq, message, ...(tree ? { tree } : {}) }, services.sections);
  }
}

/** `* VANISHED (EARLIER) 3:5`: the UIDs of the set that left since the client's CHANGEDSINCE (RFC 7162 3.2.6). */
async function reportVanishedEarlier({ session, services }: CommandContext, mailbox: SelectedMailbox, set: MessageSet, since: number): Promise<void> {
  const vanished = rangesInSet(await services.messages.vanishedSince(session.userId(), mailbox.mailboxId, since), mailbox.uidSet(set));
  if (vanished.length > 0) session.send(untagged(`VANISHED (EARLIER) ${formatRanges(vanished)}`));
}
