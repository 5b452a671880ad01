import { startTransition, useEffect, useRef, useState } from 'react';

export type LiveEvent =
  | { type: 'mail.created'; mailId: number; mailboxId: number }
  | { type: 'mail.updated'; mailIds: number[]; changes: Record<string, unknown> }
  | { type: 'mail.deleted'; mailIds: number[] }
  | { type: 'mails.changed'; count: number }
  | { type: 'mailbox.changed'; mailboxId: number; deleted: boolean }
  | { type: 'resync' };

export type LiveState = 'connecting' | 'live' | 'offline';

const TYPES = ['mail.created', 'mail.updated', 'mail.deleted', 'mails.changed', 'mailbox.changed', 'resync'] as const;
const RETRY_MS = [2_000, 5_000, 15_000, 30_000];

/**
 * The read API's event stream. EventSource cannot send headers, so the token goes in the
 * query; it resumes by itself after a dropped connection (sending Last-Event-ID). When the
 * server refuses the stream (a closed EventSource), it is opened again after a pause,
 * and a `resync` is given so nothing missed in between stays unseen.
 */
export function useLiveEvents(token: string, onEvent: (event: LiveEvent) => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const open = () => {
      source = new EventSource(`/v2/events?access_token=${encodeURIComponent(token)}`);
      source.onopen = () => {
        if (failures > 0) handler.current({ type: 'resync' });
        failures = 0;
        // The indicator is not urgent: the top bar's redraw waits its turn behind the first answers, in slices.
        startTransition(() => setState('live'));
      };
      source.onerror = () => {
        if (!source || source.readyState !== EventSource.CLOSED) {
          setState('connecting');
          return;
        }
        source.close();
        setState('offline');
        if (stopped) return;
        retry = setTimeout(open, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
        failures += 1;
      };
      for (const type of TYPES) {
        source.addEventListener(type, (message) => {
          let data: Record<string, unknown> = {};
          try {
            data = JSON.parse((message as MessageEvent<string>).data || '{}') as Record<string, unknown>;
          } catch {
            // an event without a readable body still says something changed
          }
          handler.current({ ...data, type } as LiveEvent);
        });
      }
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [token]);

  return state;
}
