import { useCallback, useEffect, useRef, useState } from 'react';
import { cancelSend, fetchSend } from '../api/endpoints';
import { ApiError, messageOf } from '../api/http';
import type { SendRecipient, SendView } from '../api/types';
import { i18next } from '../i18n/i18n';
import type { Draft } from './draft';

export interface TrackedSend {
  /** Its recipients' statuses once its status was asked. */
  send: SendView & { recipients?: SendRecipient[] };
  subject: string;
  draft: Draft;
  undoError: string | null;
}

const FINAL = new Set(['sent', 'failed', 'cancelled']);
const POLL_MS = 1000;
/** A bounce comes back after the send went out: a sent send is still asked about for this long. */
const BOUNCE_WATCH_MS = 60_000;

/** Still to be asked about: not gone out yet, or gone out lately with no recipient bounced. */
function stillWatched({ send }: TrackedSend, now: number): boolean {
  if (!FINAL.has(send.status)) return true;
  if (send.status !== 'sent' || !send.sentAt) return false;
  return now - Date.parse(send.sentAt) < BOUNCE_WATCH_MS && !send.recipients?.some((recipient) => recipient.status === 'bounced');
}

/**
 * The sends of this session, each followed from queued to sent (or failed) by polling its
 * status, and for a minute after it went out, for its recipients' bounces; with undo while
 * no worker has started it.
 */
export function useSendTracking(onSettled: () => void) {
  const [sends, setSends] = useState<TrackedSend[]>([]);
  const settled = useRef(onSettled);
  settled.current = onSettled;
  const settledIds = useRef(new Set<number>());

  const track = useCallback((send: SendView, draft: Draft) => {
    setSends((list) =>
      [{ send, subject: draft.subject || '(no subject)', draft, undoError: null }, ...list.filter((item) => item.send.id !== send.id)].slice(0, 5),
    );
  }, []);

  const replace = useCallback((send: TrackedSend['send'], undoError: string | null = null) => {
    setSends((list) => list.map((item) => (item.send.id === send.id ? { ...item, send: { ...item.send, ...send }, undoError } : item)));
  }, []);

  const pending = sends.filter((item) => stillWatched(item, Date.now())).map((item) => item.send.id);
  const pendingKey = pending.join(',');

  useEffect(() => {
    if (!pendingKey) return;
    const ids = pendingKey.split(',').map(Number);
    const controller = new AbortController();
    const timer = setInterval(() => {
      for (const id of ids) {
        fetchSend(id, controller.signal).then(
          (send) => {
            replace(send);
            // Once per send: a sent one is still asked about for its bounces.
            if (FINAL.has(send.status) && !settledIds.current.has(id)) {
              settledIds.current.add(id);
              settled.current();
            }
          },
          () => undefined, // the next tick tries again; a 401 has already asked for sign-in
        );
      }
    }, POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [pendingKey, replace]);

  /** Undo: true when the send was cancelled (its Sent copy is back in Drafts). */
  const undo = useCallback(
    async (id: number): Promise<boolean> => {
      try {
        const send = await cancelSend(id);
        replace(send);
        settled.current();
        return send.status === 'cancelled';
      } catch (failure) {
        const tooLate = failure instanceof ApiError && failure.status === 409;
        setSends((list) =>
          list.map((item) => (item.send.id === id ? { ...item, undoError: tooLate ? i18next.t('sends.tooLate') : messageOf(failure) } : item)),
        );
        return false;
      }
    },
    [replace],
  );

  const dismiss = useCallback((id: number) => setSends((list) => list.filter((item) => item.send.id !== id)), []);

  return { sends, track, undo, dismiss };
}
