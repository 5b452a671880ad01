import { fetchDraft } from '../api/endpoints';
import { ApiError } from '../api/http';
import type { SendView } from '../api/types';
import { draftFromServer, type Draft } from './draft';

/**
 * A copy still pending at the cancel is stored (in Drafts) by the ingest worker's job, or
 * at the latest by its sweep a minute after the send: waiting that long means the reopened
 * draft is that copy, never a second one beside it.
 */
const COPY_WAIT_MS = 75_000;
const COPY_POLL_MS = 500;

/**
 * The draft an undone send goes back to: its Sent copy, now in Drafts, with the options
 * only the compose window knows. Without that copy (none, or not stored in time) it is
 * the draft as it was sent, kept in the browser.
 */
export async function undoneDraft(send: SendView, sent: Draft): Promise<Draft> {
  if (send.sentMailId === null) return { ...sent };
  const giveUpAt = Date.now() + COPY_WAIT_MS;
  for (;;) {
    try {
      const saved = draftFromServer(await fetchDraft(send.sentMailId));
      return { ...saved, rich: sent.rich, html: sent.rich ? sent.html : saved.html, undoSeconds: sent.undoSeconds, sendSeparately: sent.sendSeparately };
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.status === 404) || Date.now() > giveUpAt) return { ...sent };
      await new Promise((resolve) => setTimeout(resolve, COPY_POLL_MS));
    }
  }
}
