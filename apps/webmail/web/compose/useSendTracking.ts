import { useCallback, useEffect, useRef, useState } from 'react';
import { cancelSend, fetchSend } from '../api/endpoints';
import { ApiError, messageOf } from '../api/http';
import type { SendView } from '../api/types';
import type { Draft } from './draft';

export interface TrackedSend {
  send: SendView;
  subject: string;
  draft: Draft;
  undoError: string | null;
}

const FINAL = new Set(['sent', 'failed', 'cancelled']);
const POLL_MS = 1000;

/**
 * The sends of this session, each followed from queued to sent (or failed) by polling its
 * status, with undo while no worker has started it.
 */
export function useSendTracking(onSettled: () => void) {
  const [sends, setSends] = useState<TrackedSend[]>([]);
  const settled = useRef(onSettled);
  settled.current = onSettled;

  const track = useCallback((send: SendView, draft: Draft) => {
    setSends((list) =>
      [{ send, subject: draft.subject || '(no subject)', draft, undoError: null }, ...list.filter((item) => item.send.id !== send.id)].slice(0, 5),
    );
  }, []);

  const replace = useCallback((send: SendView, undoError: string | null = null) => {
    setSends((list) => list.map((item) => (item.send.id === send.id ? { ...item, send: { ...item.send, ...send }, undoError } : item)));
  }, []);

  const pending = sends.filter((item) => !FINAL.has(item.send.status)).map((item) => item.send.id);
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
            if (FINAL.has(send.status)) settled.current();
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
          list.map((item) =>
            item.send.id === id ? { ...item, undoError: tooLate ? 'Too late to undo: it is already on its way.' : messageOf(failure) } : item,
          ),
        );
        return false;
      }
    },
    [replace],
  );

  const dismiss = useCallback((id: number) => setSends((list) => list.filter((item) => item.send.id !== id)), []);

  return { sends, track, undo, dismiss };
}
