import type { ImapMessage } from '@letterbox/mail';
import type { MimePart } from '@letterbox/mime';
import { parseFetchCommand } from '../protocol/fetch-attributes';
import { formatRanges, rangesInSet, type MessageSet } from '../protocol/sequence-set';
import { untagged } from '../protocol/response-format';
import { ImapCommandError } from '../protocol/tokens';
import { binaryContentOf } from '../selected/binary-content';
import { planFetch, type FetchPlan } from '../selected/fetch-plan';
import { writeFetchResponse } from '../selected/fetch-response';
import { ResponseBuffer } from '../selected/response-buffer';
import type { SelectedMailbox } from '../selected/selected-mailbox';
import { ok, type CommandContext, type CommandHandler } from '../session/command-handler';

/** Messages read from the database at a time: a FETCH of 1:* over a million holds this many, written before the next. */
const CHUNK = 500;

/**
 * FETCH and UID FETCH (RFC 3501 6.4.5, 6.4.8; RFC 7162 3.1.4 CHANGEDSINCE, 3.2.6 VANISHED): the messages in
 * chunks, each chunk's responses written (the socket drained) while the next is read, and no further. Reading a section
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
    const chunks = uidChunks(mailbox, command.set, byUid);
    const readNext = async () => {
      const next = chunks.next();
      return next.done ? undefined : readChunk(context, mailbox, plan, next.value, command.changedSince);
    };
    let reading = readNext();
    try {
      for (let chunk = await reading; chunk; chunk = await reading) {
        reading = readNext();
        await writeChunk(context, mailbox, plan, chunk, out);
      }
    } finally {
      // A chunk read ahead for a command that failed is not waited for: the command's own error is the one told.
      reading.catch(() => undefined);
    }
    await out.flush();
    return ok(`${name} completed`);
  },
};

/** A chunk's messages with the MIME trees their items need. */
interface FetchChunk {
  messages: ImapMessage[];
  trees: Map<number, MimePart>;
}

function* uidChunks(mailbox: SelectedMailbox, set: MessageSet, byUid: boolean): Generator<number[]> {
  for (const [start, end] of mailbox.indexRanges(set, byUid)) {
    for (let from = start; from < end; from += CHUNK) yield mailbox.uidsBetween(from, Math.min(end, from + CHUNK));
  }
}

async function readChunk(
  context: CommandContext,
  mailbox: SelectedMailbox,
  plan: FetchPlan,
  uids: number[],
  changedSince: number | undefined,
): Promise<FetchChunk> {
  const extra = plan.needsTree ? 'layout' : plan.needsEnvelopeOnly ? 'envelope' : undefined;
  const found = await context.services.messages.byUids(context.session.userId(), mailbox.mailboxId, uids, extra);
  const messages = changedSince === undefined ? found : found.filter((message) => message.modseq > changedSince);
  return { messages, trees: await treesOf(context, mailbox, plan, messages) };
}

async function writeChunk(
  { session, services }: CommandContext,
  mailbox: SelectedMailbox,
  plan: FetchPlan,
  { messages, trees }: FetchChunk,
  out: ResponseBuffer,
): Promise<void> {
  const userId = session.userId();
  // A part BINARY cannot decode fails the FETCH before any mail of the chunk is marked read by it.
  for (const tree of trees.values()) refuseUndecodable(plan, tree);
  const unseen = plan.setsSeen && !mailbox.readOnly ? messages.filter((message) => !message.flags.seen) : [];
  if (unseen.length > 0) {
    await services.markSeen(
      userId,
      unseen.map((message) => message.mailId),
    );
    unseen.forEach((message) => (message.flags.seen = true));
  }
  for (const message of messages) {
    const seq = mailbox.seqOf(message.uid);
    if (seq === undefined) continue;
    const tree = trees.get(message.uid);
    await writeFetchResponse(out, plan, { seq, message, ...(tree ? { tree } : {}) }, services.sections);
  }
}

/**
 * The MIME trees of the messages that need theirs, by UID: every one when the items read the tree, only those whose
 * row lacks the envelope when ENVELOPE is the only thing of it asked (their layout read now, their envelope recorded).
 */
async function treesOf(
  { session, services }: CommandContext,
  mailbox: SelectedMailbox,
  plan: FetchPlan,
  messages: ImapMessage[],
): Promise<Map<number, MimePart>> {
  const lacking = plan.needsTree ? messages : plan.needsEnvelopeOnly ? messages.filter((message) => !message.envelope) : [];
  if (lacking.length === 0) return new Map();
  const withLayout = plan.needsTree
    ? lacking
    : await services.messages.byUids(
        session.userId(),
        mailbox.mailboxId,
        lacking.map((message) => message.uid),
        'layout',
      );
  const trees = await services.mimeTrees.treesOf(
    withLayout.map((message) => ({ id: message.mailId, storageKey: message.storageKey, layout: message.layout! })),
  );
  return new Map(withLayout.map((message, index) => [message.uid, trees[index]]));
}

function refuseUndecodable(plan: FetchPlan, tree: MimePart): void {
  for (const item of plan.items) if (item.kind === 'binary' || item.kind === 'binary-size') binaryContentOf(tree, item.part);
}

/** `* VANISHED (EARLIER) 3:5`: the UIDs of the set that left since the client's CHANGEDSINCE (RFC 7162 3.2.6). */
async function reportVanishedEarlier({ session, services }: CommandContext, mailbox: SelectedMailbox, set: MessageSet, since: number): Promise<void> {
  const vanished = rangesInSet(await services.messages.vanishedSince(session.userId(), mailbox.mailboxId, since), mailbox.uidSet(set));
  if (vanished.length > 0) session.send(untagged(`VANISHED (EARLIER) ${formatRanges(vanished)}`));
}
