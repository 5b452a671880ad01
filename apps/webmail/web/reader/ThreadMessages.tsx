import { useEffect, useState } from 'react';
import { fetchMail, fetchThread } from '../api/endpoints';
import { isAbort, messageOf } from '../api/http';
import type { MailDetail, MailSummary } from '../api/types';
import { displayName, formatFullDate } from '../shared/format';

interface Props {
  threadId: number;
  openMailId: number;
}

/**
 * The conversation around the open mail: its other messages, oldest first, each folded to
 * its sender, date and first words until clicked. The open mail is the one expanded below.
 */
export function ThreadMessages({ threadId, openMailId }: Props) {
  const [messages, setMessages] = useState<MailSummary[]>([]);
  const [expanded, setExpanded] = useState<Record<number, MailDetail | 'loading' | string>>({});

  useEffect(() => {
    const controller = new AbortController();
    fetchThread(threadId, controller.signal).then(
      (thread) => setMessages(thread.messages),
      (failure: unknown) => {
        if (!isAbort(failure)) setMessages([]);
      },
    );
    return () => controller.abort();
  }, [threadId, openMailId]);

  const others = messages.filter((message) => message.id !== openMailId);
  if (others.length === 0) return null;

  async function toggle(message: MailSummary) {
    if (expanded[message.id]) {
      setExpanded(({ [message.id]: _closed, ...rest }) => rest);
      return;
    }
    setExpanded((current) => ({ ...current, [message.id]: 'loading' }));
    try {
      const detail = await fetchMail(message.id);
      setExpanded((current) => ({ ...current, [message.id]: detail }));
    } catch (failure) {
      setExpanded((current) => ({ ...current, [message.id]: messageOf(failure) }));
    }
  }

  return (
    <section className="thread" aria-label="Conversation">
      <h3 className="thread-title">{messages.length} messages in this conversation</h3>
      <ol>
        {others.map((message) => {
          const shown = expanded[message.id];
          return (
            <li key={message.id} className="thread-message" data-mail-id={message.id}>
              <button type="button" className="thread-toggle" aria-expanded={Boolean(shown)} onClick={() => void toggle(message)}>
                <span className="thread-from">{displayName(message.from)}</span> <time dateTime={message.receivedAt}>{formatFullDate(message.receivedAt)}</time>
                {!shown && <span className="thread-snippet"> — {message.snippet}</span>}
              </button>
              {shown === 'loading' && <p className="thread-body">Opening…</p>}
              {typeof shown === 'string' && shown !== 'loading' && <p className="error">{shown}</p>}
              {typeof shown === 'object' && <pre className="thread-body mail-text">{shown.text}</pre>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
