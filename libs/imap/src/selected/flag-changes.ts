import type { ImapFlagChange } from '@letterbox/mail';
import type { ImapServices } from '../session/command-handler';

/** Changes read at a time: marking a million mails read is told a page at a time, never held whole. */
const PAGE = 1000;

/** The mails of the mailbox whose flags changed, or that arrived, after `modseq`, in pages in UID order. */
export async function* flagChangePages(services: ImapServices, userId: number, mailboxId: number, modseq: number): AsyncGenerator<ImapFlagChange[]> {
  let afterUid = 0;
  for (;;) {
    const page = await services.messages.changedSince(userId, mailboxId, modseq, { afterUid, limit: PAGE });
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    afterUid = page[page.length - 1].uid;
  }
}
